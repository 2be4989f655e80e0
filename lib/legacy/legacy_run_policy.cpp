#include "legacy/legacy_run_policy.h"

#include <limits>

#include "model/jobset_labels.h"
#include "model/kueue_labels.h"
#include "model/vocabulary.h"
#include "render/pod_group.h"

namespace trainjob {
namespace {

/// What the v1 operator means by no backoffLimit for restarting replicas: no limit.
constexpr int64_t kUnlimitedBackoff = std::numeric_limits<int32_t>::max();
/// Exit codes that fail an ExitCode replica for good; 128 and up (signals) are retried.
constexpr int kLastPermanentExitCode = 127;
constexpr const char* kVolcanoScheduler = "volcano";

bool names_coscheduling(const std::string& scheduler) {
  return scheduler == "scheduler-plugins" || scheduler == "scheduler-plugins-scheduler";
}

const Json& scheduling_policy(const LegacyJob& job) {
  return json_member(job.run_policy, "schedulingPolicy");
}

/// podFailurePolicy failing the Job on exit codes 1-127 of the default container.
Json exit_code_failure_policy(const LegacyJob& job) {
  Json codes = Json::array();
  for (int code = 1; code <= kLastPermanentExitCode; ++code)
    codes.push_back(code);
  Json on_exit_codes = {
      {"containerName", job.kind->default_container}, {"operator", "In"}, {"values", codes}};
  return Json{
      {"rules", Json::array({Json{{"action", "FailJob"}, {"onExitCodes", on_exit_codes}}})}};
}

/// True when the kind's webhook refuses the job's runPolicy.managedBy: set (an empty string
/// too) and neither the operator's nor MultiKueue's.
bool managed_by_refused(const LegacyJob& job) {
  const Json& value = json_member(job.run_policy, "managedBy");
  return job.kind->checks_managed_by && !value.is_null() && value != kLegacyControllerName &&
         value != kMultiKueueControllerName;
}

void copy_integer(const Json& from, const char* key, Json* to) {
  const Json& value = json_member(from, key);
  if (value.is_number_integer()) (*to)[key] = value;
}

}  // namespace

std::string legacy_pod_restart_policy(const std::string& replica_policy) {
  if (replica_policy == "Always") return "OnFailure";
  if (replica_policy == "ExitCode") return "Never";
  return replica_policy;
}

void apply_run_policy(const LegacyJob& job, const LegacyReplica& replica, Json* job_spec) {
  const Json& backoff = json_member(job.run_policy, "backoffLimit");
  if (replica.restart_policy == "Never") {
    (*job_spec)["backoffLimit"] = 0;  // v1 fails the job on the first failed pod
  } else {
    (*job_spec)["backoffLimit"] = backoff.is_number_integer() ? backoff : Json(kUnlimitedBackoff);
  }
  copy_integer(job.run_policy, "activeDeadlineSeconds", job_spec);
  copy_integer(job.run_policy, "ttlSecondsAfterFinished", job_spec);
  const Json& suspend = json_member(job.run_policy, "suspend");
  (*job_spec)["suspend"] = suspend.is_boolean() ? suspend.get<bool>() : false;
  if (replica.restart_policy == "ExitCode")
    (*job_spec)["podFailurePolicy"] = exit_code_failure_policy(job);
}

void annotate_clean_pod_policy(const LegacyJob& job, Json* job_metadata) {
  const std::string& clean = string_member_ref(job.run_policy, "cleanPodPolicy");
  if (clean == "Running" || clean == "All")
    (*job_metadata)["annotations"][kCleanPodPolicyAnnotation] = clean;
}

void label_for_kueue(const LegacyJob& job, Json* job_metadata) {
  if (job.document == nullptr) return;
  const Json labels = kueue_job_labels(job.document->value);  // items() must not outlive it
  for (const auto& entry : labels.items())
    (*job_metadata)["labels"][entry.key()] = entry.value();
}

void check_legacy_managed_by(const LegacyJob& job, const FieldReader& reader) {
  if (!managed_by_refused(job)) return;
  reader.error("spec.runPolicy.managedBy",
               std::string("expected ") + kLegacyControllerName + " or " +
                   kMultiKueueControllerName + ", found " +
                   describe_value(job.run_policy["managedBy"]) + ": the " + job.kind->kind +
                   " webhook refuses any other controller; drop the field (the rendered Jobs "
                   "are run by the Job controller)");
}

void warn_run_policy(const LegacyJob& job, LegacyGang gang, const FieldReader& reader) {
  const Json& suspend = json_member(job.run_policy, "suspend");
  warn_jobs_suspended_without_queue(reader, "spec.runPolicy.suspend",
                                    suspend.is_boolean() && suspend.get<bool>(), job.name);
  for (const LegacyReplica& replica : job.replicas) {
    if (replica.restart_policy == "Always") {
      reader.warning(replica.path + ".restartPolicy",
                     "a Job's pods cannot restart Always: rendered as OnFailure, so a container "
                     "that exits 0 ends its pod (the operator would restart it)");
    }
  }
  const std::string& clean = string_member_ref(job.run_policy, "cleanPodPolicy");
  if (clean == "Running" || clean == "All") {
    reader.warning("spec.runPolicy.cleanPodPolicy",
                   "cleanPodPolicy " + clean +
                       " is applied by `submit --wait` and `run --local` only (no controller stops "
                       "the pods of the other Jobs): applied otherwise, each Job keeps its pods; "
                       "delete them with "
                       "`kubectl trainjob delete` or set ttlSecondsAfterFinished");
  }
  if (!json_member(job.run_policy, "managedBy").is_null() && !managed_by_refused(job)) {
    reader.warning("spec.runPolicy.managedBy",
                   "managedBy is dropped: the rendered Jobs are managed by the Job controller");
  }
  const Json& policy = scheduling_policy(job);
  if (!policy.is_object()) return;
  for (const auto& entry : policy.items()) {
    const std::string& field = entry.key();
    if (field == "priorityClass") continue;  // always carried, as priorityClassName
    bool carried =
        (gang == LegacyGang::kVolcano &&
         (field == "minAvailable" || field == "queue" || field == "minResources")) ||
        (gang == LegacyGang::kCoscheduling &&
         (field == "minAvailable" || field == "minResources" || field == "scheduleTimeoutSeconds"));
    if (carried) continue;
    reader.warning("spec.runPolicy.schedulingPolicy." + field,
                   gang == LegacyGang::kNone
                       ? field +
                             " is dropped: only a gang scheduler uses it, and no pod template "
                             "names one (schedulerName volcano or scheduler-plugins-scheduler)"
                       : field +
                             " is dropped: the PodGroup of this gang scheduler has no such "
                             "field");
  }
}

LegacyGang legacy_gang(const LegacyJob& job) {
  for (const LegacyReplica& replica : job.replicas) {
    const std::string& scheduler =
        string_member_ref(json_member(replica.pod_template, "spec"), "schedulerName");
    if (scheduler == kVolcanoScheduler) return LegacyGang::kVolcano;
    if (names_coscheduling(scheduler)) return LegacyGang::kCoscheduling;
  }
  return LegacyGang::kNone;
}

void decorate_pod(const LegacyJob& job, LegacyGang gang, const LegacyReplica& replica,
                  Json* pod_template) {
  Json& spec = (*pod_template)["spec"];
  const std::string& priority = string_member_ref(scheduling_policy(job), "priorityClass");
  if (!priority.empty() && string_member_ref(spec, "priorityClassName").empty())
    spec["priorityClassName"] = priority;
  Json& metadata = (*pod_template)["metadata"];
  if (gang == LegacyGang::kVolcano) {
    metadata["annotations"][kVolcanoGroupNameAnnotation] = job.name;
    metadata["annotations"][kVolcanoTaskSpecAnnotation] = replica.lower;
  } else if (gang == LegacyGang::kCoscheduling) {
    metadata["labels"][kCoschedulingPodGroupLabel] = job.name;
  }
}

std::optional<Json> legacy_pod_group(const LegacyJob& job, LegacyGang gang) {
  if (gang == LegacyGang::kNone) return std::nullopt;
  const Json& policy = scheduling_policy(job);
  Json spec = Json::object();
  const Json& min_available = json_member(policy, "minAvailable");
  spec["minMember"] =
      min_available.is_number_integer() ? min_available : Json(job.total_replicas());
  const Json& min_resources = json_member(policy, "minResources");
  if (min_resources.is_object()) spec["minResources"] = min_resources;
  const char* api_version = kSchedulingApiVersion;
  if (gang == LegacyGang::kVolcano) {
    api_version = "scheduling.volcano.sh/v1beta1";
    const std::string& queue = string_member_ref(policy, "queue");
    if (!queue.empty()) spec["queue"] = queue;
    const std::string& priority = string_member_ref(policy, "priorityClass");
    if (!priority.empty()) spec["priorityClassName"] = priority;
  } else {
    copy_integer(policy, "scheduleTimeoutSeconds", &spec);
  }
  Json metadata = {{"name", job.name}, {"labels", ownership_labels(job.name)}};
  if (!job.name_space.empty()) metadata["namespace"] = job.name_space;
  return Json{
      {"apiVersion", api_version}, {"kind", "PodGroup"}, {"metadata", metadata}, {"spec", spec}};
}

}  // namespace trainjob
