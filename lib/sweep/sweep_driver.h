// The client side of an OptimizationJob's search, as `run --local` and `submit --wait` do
// it with no controller: at most parallelTrials trials at a time, each the plugin itself run
// again with `--trial K`, the next started as one ends; each trial's metrics read from its
// TRAINJOB_PROGRESS lines (and, on a cluster, its pod's log); a table kept up to date; the
// best trial by the objective at the end. A failed trial does not stop the search; Ctrl-C
// and a metric no trial reports do.
#ifndef TRAINJOB_SWEEP_SWEEP_DRIVER_H_
#define TRAINJOB_SWEEP_SWEEP_DRIVER_H_

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "optimize/trial_results.h"

namespace trainjob {

struct SweepDrive {
  std::string name;  ///< the OptimizationJob's
  SweepObjective objective;
  int64_t parallel = 1;
  std::vector<TrialResult> trials;      ///< every trial, waiting
  std::vector<std::string> child_argv;  ///< the plugin and its arguments; `--trial K` is added
  std::string seed_note;                ///< how the heading names the seed ("" for a grid)
  std::string logs_dir;                 ///< each trial's output to DIR/<trial>.log; "": none
  /// After a trial's process succeeded: metrics read elsewhere (a pod's log on the cluster),
  /// merged over those its output carried, its progress lines that are not JSON counted into
  /// the second argument. Empty: its output alone.
  std::function<NamedValues(const TrialResult&, BadProgressLines*)> metrics_after;
  /// A trial stopped before its end (Ctrl-C, or the search ended): removes what it left on a
  /// cluster. Empty: nothing to remove.
  std::function<void(const TrialResult&)> clean_up;
  /// The search stopped before its end, saying `reason`: recorded where `status` reads it
  /// later (on the objects a cluster's trials left). Empty: nowhere.
  std::function<void(const std::string& reason)> record_stop;
};

/// Runs the search; the exit code: 0 when a best trial was found, 1 when no trial succeeded
/// with the metric (or one succeeded without reporting it), 130 on Ctrl-C or SIGTERM.
int drive_sweep(SweepDrive drive, std::FILE* out, std::FILE* err);

}  // namespace trainjob

#endif  // TRAINJOB_SWEEP_SWEEP_DRIVER_H_
