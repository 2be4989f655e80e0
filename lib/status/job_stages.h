// JobSet's dependsOn and successPolicy, read back from the annotations render puts on plain
// Jobs: which Jobs may start now, and when the TrainJob counts as complete.
#ifndef TRAINJOB_STATUS_JOB_STAGES_H_
#define TRAINJOB_STATUS_JOB_STAGES_H_

#include <optional>
#include <string>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// The statuses a JobSet dependsOn entry may wait for.
inline constexpr const char* kDependsOnReady = "Ready";
inline constexpr const char* kDependsOnComplete = "Complete";

/// One dependsOn entry: every Job of `replicated_job` must reach `status` (Ready, Complete).
struct JobDependency {
  std::string replicated_job;
  std::string status;
};

/// JobSet's successPolicy; empty `targets` and `target_jobs` mean every replicated job.
/// A legacy kind's rule may name Jobs instead (a TFJob without Chief: worker 0's Job).
struct SuccessPolicy {
  std::string op = "All";                ///< All or Any
  std::vector<std::string> targets;      ///< steps (replicated jobs, replica types)
  std::vector<std::string> target_jobs;  ///< Job names
  /// Whether the step is a target, or holds one of `target_jobs`' Jobs among `jobs`.
  bool is_target(const std::string& step, const std::vector<Json>& jobs = {}) const;
  /// Whether the policy looks at this Job.
  bool targets_job(const Json& job) const;
};

/// The Job's kubectl-trainjob/depends-on annotation; empty when absent or unreadable
/// (entries without a name or with an unknown status are dropped).
std::vector<JobDependency> depends_on_of(const Json& job);
/// The kubectl-trainjob/success-policy annotation of the first Job carrying a readable one.
std::optional<SuccessPolicy> success_policy_of(const std::vector<Json>& jobs);

/// As JobSet judges dependsOn: Ready when ready + succeeded pods >= parallelism, Complete by
/// the Complete condition.
bool job_reached(const Json& job, const std::string& status);

/// Whether `job` may be created: every Job of each replicated job it depends on (those in
/// `planned`, by name) exists in `live` and has reached the status asked for. When no Job of
/// the plan carries a depends-on annotation, the older rule holds: Jobs other than
/// initializers wait for every initializer Job to complete.
bool dependencies_met(const Json& job, const std::vector<Json>& planned,
                      const std::vector<Json>& live);

/// Whether the policy is met by the `live` Jobs. All: every Job of every target replicated
/// job is Complete, the count taken from the jobset replicatedjob-replicas label or the
/// kubectl-trainjob/replicas annotation (so a target Job not created yet counts as not
/// complete), and every Job named in `target_jobs`; Any: one target Job is Complete.
bool success_policy_met(const SuccessPolicy& policy, const std::vector<Json>& live);

/// A Job of an initializer step (`*-initializer`).
bool is_initializer_job(const Json& object);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_JOB_STAGES_H_
