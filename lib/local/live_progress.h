// `run --local` on a terminal: the TRAINJOB_PROGRESS lines a pod prints (docs/progress.md)
// become one line at the bottom, redrawn in place (epoch, step/total, loss, ETA), with the
// pods' other output scrolling above it. Piped, the runner never makes one: lines stay raw.
#ifndef TRAINJOB_LOCAL_LIVE_PROGRESS_H_
#define TRAINJOB_LOCAL_LIVE_PROGRESS_H_

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "model/trainer_progress.h"

namespace trainjob {

/// `[node-0] epoch 2/5, step 120/300 (40%), loss 0.53, ETA 1m12s`: the pod's label (empty:
/// none), then what `progress` holds, cut to `width` columns (0: no limit) so that it never
/// wraps, which would break redrawing it in place. `eta_seconds` stands in for a missing
/// remainingSeconds.
std::string format_live_progress(const TrainerProgress& progress, std::string_view label,
                                 std::optional<double> eta_seconds, size_t width);

/// The time left at the rate seen so far: from `first` (a fraction done, 0-1, at
/// `first_seconds`) to `now` (at `now_seconds`). Null without progress between them.
std::optional<double> estimate_remaining(double first, double first_seconds, double now,
                                         double now_seconds);

class LiveProgress {
 public:
  explicit LiveProgress(std::FILE* out);
  /// When `line` is a progress line: shows it (from the first pod that printed one; the
  /// other ranks' repeat it) and returns true. Other lines: false.
  bool take(const std::string& label, std::string_view line);
  /// Removes the live line, before other output is written.
  void clear();
  /// Draws it again, after other output.
  void redraw();
  /// Leaves the last progress as an ordinary line, for the scrollback.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  std::string owner_;  ///< the pod whose progress is shown
  std::string shown_;  ///< the live line's text ("" while there is none)
  bool drawn_ = false;
  Clock::time_point start_ = Clock::now();
  std::optional<double> first_fraction_;
  double first_seconds_ = 0;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LIVE_PROGRESS_H_
