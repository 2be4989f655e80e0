// The progress line: one machine-readable line per report, which `kubectl trainjob status`
// finds in the last lines of rank 0's log. Any program can print it (docs/progress.md):
//   TRAINJOB_PROGRESS {"epoch":3,"epochs":10,"step":300,"totalSteps":1000,"loss":0.021,...}
#ifndef TRAINJOB_TRAINER_PROGRESS_H_
#define TRAINJOB_TRAINER_PROGRESS_H_

#include <cstdint>
#include <string>

namespace trainjob::trainer {

inline constexpr const char* kProgressMarker = "TRAINJOB_PROGRESS";

/// What one progress line says.
struct ProgressReport {
  int epoch = 0;  ///< 1-based, the epoch in progress or just finished
  int epochs = 0;
  int64_t step = 0;  ///< optimizer steps done, counted over every epoch
  int64_t total_steps = 0;
  double loss = 0;
  double samples_per_second = 0;
  double remaining_seconds = -1;  ///< negative: unknown
};

/// `TRAINJOB_PROGRESS {...}`, without a newline; non-finite numbers are left out.
std::string progress_line(const ProgressReport& report);

/// The time left at the pace of this run: `elapsed` seconds for `steps_done` steps (those of
/// this run, not those a checkpoint restored), `steps_left` to go. Negative when unknown.
double remaining_seconds(double elapsed, int64_t steps_done, int64_t steps_left);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_PROGRESS_H_
