// runPolicy and restartPolicy of a legacy job mapped onto batch/v1 Jobs, and the
// operator's gang scheduling (PodGroup + pod decoration) where the pods name a gang
// scheduler. What a plain Job cannot carry is a located warning.
#ifndef TRAINJOB_LEGACY_LEGACY_RUN_POLICY_H_
#define TRAINJOB_LEGACY_LEGACY_RUN_POLICY_H_

#include <optional>
#include <string>

#include "legacy/legacy_job.h"
#include "load/json.h"
#include "model/field.h"

namespace trainjob {

enum class LegacyGang { kNone, kVolcano, kCoscheduling, kKai };

/// The Job's restartPolicy for a replica's: Always cannot be a Job's, ExitCode is Never
/// plus a podFailurePolicy.
std::string legacy_pod_restart_policy(const std::string& replica_policy);
/// backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished, suspend and (ExitCode)
/// podFailurePolicy of the Job of one pod of `replica`.
void apply_run_policy(const LegacyJob& job, const LegacyReplica& replica, Json* job_spec);
/// Records cleanPodPolicy Running or All on the Job's annotations, for `submit --wait` to
/// apply when the job finishes (None, the default, is left unsaid).
void annotate_clean_pod_policy(const LegacyJob& job, Json* job_metadata);
/// KAI's skip-podgrouper on the Job when the gang is KAI's (render/kai.h).
void annotate_gang_job(LegacyGang gang, Json* job_metadata);
/// Adds the job's Kueue labels (queue name, priority class) to a Job's labels, as a
/// TrainJob's Jobs get them: Kueue admits each Job by its own labels.
void label_for_kueue(const LegacyJob& job, Json* job_metadata);
/// The webhook rule on runPolicy.managedBy (LegacyKind::checks_managed_by): an error at the
/// field for a controller the webhook does not accept.
void check_legacy_managed_by(const LegacyJob& job, const FieldReader& reader);
/// Warnings for what the Jobs lose: Always, cleanPodPolicy, managedBy, the schedulingPolicy
/// fields the chosen gang scheduler (or none) does not use; and a suspended job that no
/// Kueue queue will admit.
void warn_run_policy(const LegacyJob& job, LegacyGang gang, const FieldReader& reader);
/// The gang scheduler the pod templates name (schedulerName volcano, scheduler-plugins or
/// kai-scheduler).
LegacyGang legacy_gang(const LegacyJob& job);
/// The pod-level changes of runPolicy: schedulingPolicy.priorityClass as priorityClassName
/// when unset, and the gang scheduler's label or annotations.
void decorate_pod(const LegacyJob& job, LegacyGang gang, const LegacyReplica& replica,
                  Json* pod_template);
/// The PodGroup named like the job, as the operator creates it; nullopt without a gang.
std::optional<Json> legacy_pod_group(const LegacyJob& job, LegacyGang gang);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_LEGACY_RUN_POLICY_H_
