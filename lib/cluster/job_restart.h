// Whole-job restart on the cluster: what JobSet's controller does for failurePolicy.maxRestarts
// (RestartJobSet), done by the client that waits (`submit --wait`, `wait --restart`).
#ifndef TRAINJOB_CLUSTER_JOB_RESTART_H_
#define TRAINJOB_CLUSTER_JOB_RESTART_H_

#include <string>
#include <vector>

#include "cluster/submit_plan.h"
#include "kube/client.h"
#include "kube/environment.h"
#include "load/json.h"

namespace trainjob {

/// How long a restart waits for the old Jobs' pods to go before it gives up.
constexpr double kRestartDeleteTimeout = 120;

/// Deletes the Jobs `old` (the TrainJob `name`'s, as last seen) and waits until no Job and no
/// pod of the TrainJob is left, so that the next attempt's Jobs (job_for_attempt's) can be
/// created under the same names and no old pod runs beside a new one (JobSet deletes them in
/// the foreground before it creates them again). Empty when done, else what went wrong.
std::string delete_jobs_and_wait(KubeClient* client, const Clock& clock,
                                 const std::string& name_space, const std::string& name,
                                 const std::vector<Json>& old);

/// delete_jobs_and_wait, then the Jobs `old` created again for restart `attempt` (for
/// `wait --restart`, which has only what the cluster holds). Empty when done, else why not.
std::string recreate_jobs(KubeClient* client, const Clock& clock, const std::string& name_space,
                          const std::string& name, const std::vector<Json>& old, int attempt);

/// `plan` as it is applied to a TrainJob restarted before (its Jobs at restart attempt N > 0):
/// its Jobs at attempt N too, so that submitting the same file again (to wait for it once
/// more, say) changes nothing rather than meet a Job's immutable pod template. Only a plan
/// whose Jobs may restart (kubectl-trainjob/max-restarts) looks at the cluster.
SubmitPlan at_live_restart_attempt(KubeClient* client, const SubmitPlan& plan);

/// The line a restart prints: `TrainJob T: Restarting (attempt 1 of 2): CAUSE`.
std::string restart_line(const std::string& kind, const std::string& name, int attempt,
                         int max_restarts, const std::string& cause);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_JOB_RESTART_H_
