// The progress line: one machine-readable line per report, which `kubectl trainjob status`
// finds in the last lines of rank 0's log. Any program can print it (docs/progress.md):
//   TRAINJOB_PROGRESS {"epoch":3,"epochs":10,"step":300,"totalSteps":1000,"loss":0.021,...}
// Its loss and accuracy are the metrics an OptimizationJob's objective reads.
#ifndef TRAINJOB_TRAINER_PROGRESS_PROGRESS_H_
#define TRAINJOB_TRAINER_PROGRESS_PROGRESS_H_

#include <cstdint>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

namespace trainjob::trainer {

inline constexpr const char* kProgressMarker = "TRAINJOB_PROGRESS";

/// What one progress line says.
struct ProgressReport {
  int epoch = 0;  ///< 1-based, the epoch in progress or just finished
  int epochs = 0;
  int64_t step = 0;  ///< optimizer steps done, counted over every epoch
  int64_t total_steps = 0;
  double loss = 0;
  /// Fraction of the test split classified right, 0..1; NaN (left out) where there is none:
  /// the linear model, and reports within an epoch.
  double accuracy = std::numeric_limits<double>::quiet_NaN();
  double samples_per_second = 0;
  double remaining_seconds = -1;  ///< negative: unknown
};

/// A metric as both reports carry it: its name, and its value as text.
struct ProgressMetric {
  std::string name;
  std::string value;
};

/// loss, accuracy and samplesPerSecond, those that are finite, formatted once so that the
/// line and the status server see the same text.
std::vector<ProgressMetric> progress_metrics(const ProgressReport& report);

/// `TRAINJOB_PROGRESS {...}`, without a newline; non-finite numbers are left out.
std::string progress_line(const ProgressReport& report);

/// 0–100 from steps, else from epochs, rounded down, as `status` computes it from the line.
int progress_percentage(const ProgressReport& report);

/// `2026-11-23T10:00:05Z`: RFC 3339 in UTC, as a Kubernetes metav1.Time is written.
std::string utc_timestamp(std::time_t seconds);

/// The body upstream's status server takes (Trainer's UpdateTrainJobStatusRequest):
/// {"trainerStatus": {progressPercentage, estimatedRemainingSeconds, metrics: [{name, value}],
/// lastUpdatedTime}}, `updated` being the report's time as utc_timestamp writes it.
std::string trainer_status_body(const ProgressReport& report, const std::string& updated);

/// The time left at the pace of this run: `elapsed` seconds for `steps_done` steps (those of
/// this run, not those a checkpoint restored), `steps_left` to go. Negative when unknown.
double remaining_seconds(double elapsed, int64_t steps_done, int64_t steps_left);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_PROGRESS_PROGRESS_H_
