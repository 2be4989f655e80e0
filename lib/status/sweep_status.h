// `status` and `delete` of an OptimizationJob on the cluster: its trials found by the
// optimizationjob-name label, each one's state as `status` computes a TrainJob's, and the
// metrics rank 0 printed in its log (the TRAINJOB_PROGRESS lines of docs/progress.md).
#ifndef TRAINJOB_STATUS_SWEEP_STATUS_H_
#define TRAINJOB_STATUS_SWEEP_STATUS_H_

#include <functional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/environment.h"
#include "status/sweep/sweep_trials.h"
#include "status/trainjob_status.h"

namespace trainjob {

/// How many of the last log lines trial_metrics reads, and at most how many bytes of them:
/// enough for a run's progress lines, bounded whatever the program printed. (The kubelet
/// keeps the first bytes of the tail; when that cuts, the last kProgressTailLines lines are
/// read as well.)
inline constexpr int kTrialMetricsTailLines = 5000;
inline constexpr long kTrialMetricsLimitBytes = 8L << 20;

/// The metrics trial TrainJob `trial` reported: every TRAINJOB_PROGRESS line of the tail of
/// rank 0's log merged in order (a metric printed on epoch lines only survives later step
/// lines), its progress lines that are not JSON counted into `bad` when given. Empty when
/// there is no such pod or log. Throws KubeError only when the Jobs or pods cannot be listed.
NamedValues trial_metrics(KubeClient* client, const std::string& name_space,
                          const std::string& trial, BadProgressLines* bad = nullptr);

/// The trials of OptimizationJob `name` (from its Jobs and Services), by index; empty when
/// none exists.
std::vector<TrialObject> find_sweep_trials(KubeClient* client, const std::string& name_space,
                                           const std::string& name);

/// The OptimizationJob from `trials` (as find_sweep_trials gives them): each trial's state and
/// metrics.
SweepStatus fetch_sweep_status(KubeClient* client, const std::string& name_space,
                               const std::string& name, const std::vector<TrialObject>& trials);

/// Before a search starts: what its trials from an earlier search left on the cluster, as
/// `3 trials: 2 succeeded, 1 failed` (its status now), or "" when nothing is left. A search
/// would not run those trials again, only read their old results.
std::string earlier_sweep_trials(KubeClient* client, const std::string& name_space,
                                 const std::string& name);

/// `submit --wait --rerun` of a search: deletes every trial an earlier search left, so that
/// no old trial is read as one of this search (each trial waits until its own objects are
/// gone before it is created again). Returns the trials deleted.
std::vector<std::string> delete_sweep_trials(KubeClient* client, const std::string& name_space,
                                             const std::string& name);

/// A search that stopped before its end: `reason` put on every object its trials left
/// (kOptimizationStoppedAnnotation), for `status` to say later. Returns how many objects
/// were marked; throws KubeError when they cannot be listed or marked.
size_t record_sweep_stop(KubeClient* client, const std::string& name_space, const std::string& name,
                         const std::string& reason);

/// Throws KubeError, kubectl's "not found", for OptimizationJob `name`.
[[noreturn]] void throw_sweep_not_found(const std::string& name_space, const std::string& name);

/// `status --watch` of an OptimizationJob: `on_status` now and every `interval` seconds
/// until no trial runs; whether one succeeded.
bool watch_sweep_status(KubeClient* client, const Clock& clock, const std::string& name_space,
                        const std::string& name, double interval,
                        const std::function<void(const SweepStatus&)>& on_status);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_SWEEP_STATUS_H_
