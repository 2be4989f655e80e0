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

/// Progress lines a program meant to print but that are no JSON object: the marker then `{`
/// or `[` and something no JSON parser reads (Python's `print("TRAINJOB_PROGRESS", {...})`
/// prints a dict, `'loss'` and `nan`). Counted, so that a reader can say why it saw none.
struct BadProgressLines {
  size_t count = 0;
  std::string first;  ///< the first such line from its `{`, cut to kShownBadProgress bytes
  /// Counts `line`, keeping it when it is the first.
  void add(std::string_view body);
  /// Keeps the first of both and adds the counts.
  void merge(const BadProgressLines& other);
  /// `3 TRAINJOB_PROGRESS lines were not JSON: {'loss': 0.1} (docs/progress.md)`; "" when
  /// none. The marker is never followed by `{` here, so the text is no progress line itself.
  std::string describe() const;
};
inline constexpr size_t kShownBadProgress = 120;

/// What one line is to a progress reader.
struct ProgressLine {
  enum class Kind { kOther, kProgress, kNotJson } kind = Kind::kOther;
  std::optional<TrainerProgress> progress;  ///< with kProgress
  std::string_view body;                    ///< with kNotJson: from its `{` or `[` on
};

/// Reads `line`: the marker anywhere in it (a prefix such as mpirun's `[1,0]<stdout>:` or
/// `[rank 0]` is fine), then one JSON object, is progress; the marker then `{` or `[` and
/// anything else (no JSON, a JSON array, a line over kMaxProgressLine) is kNotJson; any other
/// line (prose that names the marker too) is kOther. The one reader of progress lines.
///
///   classify_progress_line(R"(TRAINJOB_PROGRESS {"loss": 0.5})").kind   == kProgress
///   classify_progress_line("TRAINJOB_PROGRESS {'loss': 0.5}").kind      == kNotJson
///   classify_progress_line("prints TRAINJOB_PROGRESS lines").kind        == kOther
ProgressLine classify_progress_line(std::string_view line);

/// The progress a line reports; null for other lines and lines that are not JSON.
std::optional<TrainerProgress> parse_progress_line(std::string_view line);
/// The last progress line of `log`; with `timestamps`, each line starts with the kubelet's
/// RFC 3339 time and a space. Lines that are not JSON are counted into `bad` when given.
std::optional<TrainerProgress> latest_progress(std::string_view log, bool timestamps,
                                               BadProgressLines* bad = nullptr);

/// 0–100 from steps, else from epochs, else the line's progressPercentage; null when none is
/// known.
std::optional<int> progress_percentage(const TrainerProgress& progress);
/// `epoch 3/10 (30%), loss 0.021, 1,410 samples/s, ~2m left`.
std::string format_progress(const TrainerProgress& progress);
/// Trainer v2.2's `status.trainerStatus`.
Json trainer_status_json(const TrainerProgress& progress);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_TRAINER_PROGRESS_H_
