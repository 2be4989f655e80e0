// The success rule of a legacy kind (PyTorchJob: the Master decides) for `run --local`:
// read from the kubectl-trainjob/success-policy annotation render puts on the kind's Jobs,
// and judged on the pods' outcomes once they end.
#ifndef TRAINJOB_LOCAL_PLAN_LOCAL_SUCCESS_H_
#define TRAINJOB_LOCAL_PLAN_LOCAL_SUCCESS_H_

#include <optional>
#include <string>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// The operator's runPolicy.cleanPodPolicy: what becomes of the pods still running once the
/// job finished. None (every v1 kind's default, and mpi-operator's) leaves them to run to
/// their end; Running and All stop them (All also deletes finished pods, which here is
/// nothing to do: their output was shown as it came).
enum class CleanPodPolicy { kNone, kRunning, kAll };

/// "None", "Running", "All".
const char* clean_pod_policy_name(CleanPodPolicy policy);
/// The policy named by the kubectl-trainjob/clean-pod-policy annotation render puts on a
/// legacy kind's Jobs (Running or All; absent, the default None).
CleanPodPolicy parse_clean_pod_policy(const std::string& annotation);

struct LocalSuccessRule {
  std::string kind;                ///< PyTorchJob, TFJob, ... (kubectl-trainjob/source-kind)
  bool any = false;                ///< operator Any: one target pod succeeding is enough
  std::vector<std::string> steps;  ///< targetReplicatedJobs: replica types (`master`)
  std::vector<std::string> jobs;   ///< targetJobs: Job names (`J-worker-0`)
  /// Once the rule is met: leave the other pods to their end (None) or stop them; read from
  /// the same Job as the rule.
  CleanPodPolicy clean_pod_policy = CleanPodPolicy::kNone;
  /// `master`, `J-worker-0`: what the rule looks at, for messages.
  std::string describe() const;
};

/// The rule of the legacy kind among `objects` (Jobs carrying kubectl-trainjob/source-kind);
/// nullopt when there is none (a TrainJob: every pod must succeed). A policy that cannot be
/// read falls back to every pod.
std::optional<LocalSuccessRule> local_success_rule(const std::vector<Json>& objects);

enum class PodOutcome { kRunning, kSucceeded, kFailed };

/// One pod as the rule sees it.
struct PodResult {
  std::string step;  ///< replica type
  std::string job;   ///< the Job's name
  PodOutcome outcome = PodOutcome::kRunning;
};

enum class RuleVerdict { kUndecided, kMet, kFailed };

/// Met when the targets succeeded (all, or one with Any); Failed once that can no longer
/// happen (a target failed under All, every target failed under Any); else Undecided.
RuleVerdict judge(const LocalSuccessRule& rule, const std::vector<PodResult>& pods);
/// Whether the rule looks at this pod.
bool is_rule_target(const LocalSuccessRule& rule, const PodResult& pod);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_LOCAL_SUCCESS_H_
