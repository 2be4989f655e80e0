// The line `run --local` ends with: whether the run succeeded, how each pod ended (exit code,
// signal, or stopped and why) and how long it took, for every kind alike.
#ifndef TRAINJOB_LOCAL_RUN_SUMMARY_H_
#define TRAINJOB_LOCAL_RUN_SUMMARY_H_

#include <string>
#include <vector>

namespace trainjob {

/// How one pod ended.
struct PodEnd {
  enum class How { kNotStarted, kExited, kSignaled, kStopped };
  std::string label;  ///< `node-0`, `master-0`
  How how = How::kNotStarted;
  int code = 0;            ///< kExited: the exit status; kSignaled: the signal
  std::string stopped_by;  ///< kStopped: `cleanPodPolicy Running`, `timeout`, ...
};

/// `succeeded: 2 pods (master-0 0, worker-0 stopped by cleanPodPolicy Running) in 1.3s`.
/// Past 8 pods only those that did not exit 0 are named, the rest counted. With `color`, the
/// first word in green or red.
std::string format_run_summary(bool succeeded, const std::vector<PodEnd>& pods, double seconds,
                               bool color = false);

/// `0.4s`, `12.0s`, `3m05s`, `1h02m`.
std::string format_elapsed(double seconds);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_RUN_SUMMARY_H_
