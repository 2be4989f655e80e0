// `wait`: kubectl wait for a TrainJob, its conditions read as `status` reads them
// (status_query.h), so that the two always agree.
#ifndef TRAINJOB_CLUSTER_JOB_WAIT_H_
#define TRAINJOB_CLUSTER_JOB_WAIT_H_

#include <functional>
#include <string>

#include "cluster/wait_condition.h"
#include "kube/client.h"
#include "kube/environment.h"

namespace trainjob {

struct WaitResult {
  int exit_code = 0;
  std::string out;  ///< for stdout: `trainjob.trainer.kubeflow.org/NAME condition met`
  std::string err;  ///< for stderr: why it ended without the condition
};

/// Waits until TrainJob `name` meets `condition`, it never will (a failed job never
/// completes: exit 1 at once), or `timeout_seconds` pass (kubectl's message, exit 1). A
/// timeout of 0 looks once; a negative one never ends. Throws JobNotFound when there is no
/// such TrainJob, except for delete (nothing to wait for: exit 0, as kubectl) and create.
/// With `on_restart` (`wait --restart`), a TrainJob whose Job failed while its Jobs'
/// kubectl-trainjob/max-restarts allows more restarts is restarted as `submit --wait` does
/// (every Job deleted and created again with the next restart attempt, recreate_jobs), and
/// `on_restart` gets the line that says so; the wait goes on.
WaitResult wait_for_trainjob(KubeClient* client, const Clock& clock, const std::string& name_space,
                             const std::string& name, const WaitCondition& condition,
                             double timeout_seconds,
                             const std::function<void(const std::string&)>& on_restart = {});

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_JOB_WAIT_H_
