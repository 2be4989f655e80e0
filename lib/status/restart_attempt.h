// Whole-job restart, the pure part: which restart attempt a TrainJob's Jobs are at, how many
// restarts their runtime allows (JobSet's failurePolicy.maxRestarts, which render writes on
// every Job), a Job as it is created again for the next attempt, and what made it fail.
#ifndef TRAINJOB_STATUS_RESTART_ATTEMPT_H_
#define TRAINJOB_STATUS_RESTART_ATTEMPT_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "status/trainjob_status.h"

namespace trainjob {

struct RestartBudget {
  int attempt = 0;       ///< the highest jobset.sigs.k8s.io/restart-attempt of the Jobs
  int max_restarts = 0;  ///< kubectl-trainjob/max-restarts; 0: a failed Job fails it all
  bool restarts_left() const { return attempt < max_restarts; }
};

/// What the Jobs say; a value that is not a number counts as 0, as JobSet's would not parse.
RestartBudget restart_budget_of(const std::vector<Json>& jobs);

/// Drops the Jobs and pods of restart attempts before `attempt`: a watch may still hold them
/// for a moment after a restart deleted them.
void drop_older_attempts(int attempt, std::vector<Json>* objects);

/// `job` (as rendered, or as read from the cluster) as it is created for restart `attempt`:
/// JobSet's restart-attempt label and annotation on the Job and its pod template set to it,
/// and what the API server and the Job controller added dropped (status, uid, resource
/// version, managed fields, the generated selector and its controller-uid labels).
Json job_for_attempt(const Json& job, int attempt);

/// The first failed pod and why, `pod NAME (node-0-2): Error (exit code 1)`; else the
/// status's message (a Job that failed without a failed pod: its deadline, say).
std::string failure_cause(const TrainJobStatus& status);

/// The reason of a failed TrainJob's Failed condition, as the Trainer copies it from the
/// JobSet's: DeadlineExceeded, ReachedMaxRestarts (its Jobs at their last restart), else
/// FailedJobs.
std::string failed_reason(const TrainJobStatus& status);

/// `1 restart`, `2 restarts`.
std::string restarts_text(int count);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_RESTART_ATTEMPT_H_
