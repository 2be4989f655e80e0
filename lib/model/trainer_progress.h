// Training progress read from a log: the last `TRAINJOB_PROGRESS {json}` line a program
// printed (the C++ trainer does at every epoch and every --progress-steps steps; any program
// may, docs/progress.md), shown by `status`, live by `run --local` on a terminal, and carried
// in -o json as Trainer v2.2's `trainerStatus` (progressPercentage, estimatedRemainingSeconds,
// metrics, lastUpdatedTime). In model so that both `cluster` and `local` read it.
#ifndef TRAINJOB_MODEL_TRAINER_PROGRESS_H_
#define TRAINJOB_MODEL_TRAINER_PROGRESS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "load/json.h"

namespace trainjob {

inline constexpr std::string_view kProgressMarker = "TRAINJOB_PROGRESS";
/// Longer lines are not read: a progress line is short, and a log line may be huge.
inline constexpr size_t kMaxProgressLine = 4096;

struct TrainerProgress {
  std::optional<int64_t> epoch, epochs, step, total_steps;
  std::optional<int64_t> remaining_seconds;
  /// Upstream's progressPercentage, for a line that carries it rather than steps or epochs.
  std::optional<int64_t> percentage;
  /// loss, samplesPerSecond and any other field, in the order printed, values as text.
  std::vector<std::pair<std::string, std::string>> metrics;
  /// The log line's RFC 3339 timestamp when the log had them, else upstream's lastUpdatedTime
  /// when the line carried one.
  std::string time;
};

/// The progress a line reports: the marker anywhere in it (a prefix such as mpirun's
/// `[1,0]<stdout>:` or `[rank 0]` is fine), then one JSON object. Null for other lines.
std::optional<TrainerProgress> parse_progress_line(std::string_view line);
/// The last progress line of `log`; with `timestamps`, each line starts with the kubelet's
/// RFC 3339 time and a space.
std::optional<TrainerProgress> latest_progress(std::string_view log, bool timestamps);

/// 0–100 from steps, else from epochs, else the line's progressPercentage; null when none is
/// known.
std::optional<int> progress_percentage(const TrainerProgress& progress);
/// `epoch 3/10 (30%), loss 0.021, 1,410 samples/s, ~2m left`.
std::string format_progress(const TrainerProgress& progress);
/// Trainer v2.2's `status.trainerStatus`.
Json trainer_status_json(const TrainerProgress& progress);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_TRAINER_PROGRESS_H_
