#include "legacy/legacy_run_policy.h"

#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "k8s/quantity.h"
#include "legacy/gang_resources.h"
#include "model/jobset_labels.h"
#include "model/kueue_labels.h"
#include "model/vocabulary.h"
#include "render/kai.h"
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

/// minMember: schedulingPolicy.minAvailable, else every pod (mpi-operator: the workers and
/// the launcher, which is the same).
int64_t gang_min_member(const LegacyJob& job) {
  const Json& min_available = json_member(scheduling_policy(job), "minAvailable");
  return min_available.is_number_integer() ? min_available.get<int64_t>() : job.total_replicas();
}

std::vector<GangReplica> gang_replicas(const LegacyJob& job) {
  std::vector<GangReplica> out;
  for (const LegacyReplica& replica : job.replicas)
    out.push_back({replica.replicas, &json_member(replica.pod_template, "spec")});
  return out;
}

/// schedulingPolicy.minResources as given (in canonical form), else the operator's sum of
/// the pods' (legacy/gang_resources); null where mpi-operator leaves it out (minMember 0).
Json gang_min_resources(const LegacyJob& job, int64_t min_member) {
  const Json& given = json_member(scheduling_policy(job), "minResources");
  if (given.is_object()) {
    Json out = Json::object();
    for (const auto& entry : given.items()) {
      const Json& value = entry.value();
      std::optional<Quantity> quantity =
          value.is_string() ? parse_quantity(value.get<std::string>(), nullptr) : std::nullopt;
      out[entry.key()] = quantity ? Json(format_quantity(*quantity)) : value;
    }
    return out;
  }
  std::vector<GangReplica> replicas = gang_replicas(job);
  if (job.kind->gang_rules == LegacyGangRules::kTrainingOperator)
    return training_operator_min_resources(replicas, min_member);
  if (min_member == 0 || replicas.empty()) return nullptr;
  return mpi_operator_min_resources(replicas[0], replicas.size() > 1 ? &replicas[1] : nullptr,
                                    min_member);
}

/// The Volcano queue: schedulingPolicy.queue; else the Training Operator's `default`, or
/// mpi-operator's the job's annotation scheduling.volcano.sh/queue-name (none without).
std::string volcano_queue(const LegacyJob& job) {
  std::string queue = string_member(scheduling_policy(job), "queue");
  if (!queue.empty()) return queue;
  if (job.kind->gang_rules == LegacyGangRules::kTrainingOperator) return "default";
  if (job.document == nullptr) return "";
  return string_member(json_member(json_member(job.document->value, "metadata"), "annotations"),
                       kVolcanoQueueNameAnnotation);
}

/// mpi-operator's PodGroup priorityClassName without schedulingPolicy.priorityClass: the
/// launcher's template's, else the workers'.
std::string first_template_priority_class(const LegacyJob& job) {
  for (const LegacyReplica& replica : job.replicas) {
    std::string name =
        string_member(json_member(replica.pod_template, "spec"), "priorityClassName");
    if (!name.empty()) return name;
  }
  return "";
}

/// True when which pods minResources counts depends on priorities render cannot read: fewer
/// members than pods, replica types whose pods add different resources, and (mpi-operator,
/// which cuts the workers when the priorities are equal) different priority class names.
bool gang_sum_depends_on_priority(const LegacyJob& job, int64_t min_member) {
  if (min_member >= job.total_replicas()) return false;
  if (!json_member(scheduling_policy(job), "minResources").is_null()) return false;
  std::vector<GangReplica> replicas = gang_replicas(job);
  std::set<std::string> pods;
  std::set<std::string> priorities;
  for (size_t i = 0; i < replicas.size(); ++i) {
    if (replicas[i].replicas <= 0) continue;
    pods.insert(training_operator_pod_resources(replicas[i]).dump());
    priorities.insert(string_member(*replicas[i].pod_spec, "priorityClassName"));
  }
  if (pods.size() < 2) return false;
  return job.kind->gang_rules == LegacyGangRules::kTrainingOperator || priorities.size() > 1;
}

void warn_gang_order(const LegacyJob& job, const FieldReader& reader) {
  const int64_t min_member = gang_min_member(job);
  if (!gang_sum_depends_on_priority(job, min_member)) return;
  std::string order;
  for (const LegacyReplica& replica : job.replicas)
    order += (order.empty() ? "" : ", ") + replica.type;
  const bool mpi_operator = job.kind->gang_rules == LegacyGangRules::kMpiOperator;
  reader.warning(
      "spec.runPolicy.schedulingPolicy.minAvailable",
      "the PodGroup's minResources sums the first " + std::to_string(min_member) + " of " +
          std::to_string(job.total_replicas()) + " pods, and their replica types ask for " +
          "different resources: " +
          (mpi_operator ? std::string("mpi-operator keeps the launcher and cuts the workers when "
                                      "their PriorityClasses' values are equal, as rendered here, "
                                      "and cuts the lower one's pods otherwise")
                        : "the Training Operator takes the replica types by their "
                          "PriorityClasses' values, in no set order among equals (rendered: " +
                              order + ")") +
          ", which render cannot read offline; set schedulingPolicy.minResources to fix the "
          "sum");
}

/// KAI's gang of the job, as its Kubeflow grouper makes it for the job itself: minMember
/// schedulingPolicy.minAvailable, else every pod; the queue label of the job, else of a pod
/// template, else KAI's default queue; the first pod template's priorityClassName.
KaiGang kai_gang(const LegacyJob& job) {
  KaiGang gang{job.name, job.name, job.name_space, "", "", gang_min_member(job)};
  if (job.document != nullptr)
    gang.queue =
        kai_queue_label(json_member(json_member(job.document->value, "metadata"), "labels"));
  for (const LegacyReplica& replica : job.replicas) {
    if (gang.queue.empty())
      gang.queue =
          kai_queue_label(json_member(json_member(replica.pod_template, "metadata"), "labels"));
  }
  if (gang.queue.empty()) gang.queue = kKaiDefaultQueue;
  gang.priority_class = first_template_priority_class(job);
  return gang;
}

/// The KAI queue label on a job whose pods do not name KAI: nothing reads it.
void warn_kai_queue_unread(const FieldReader& reader) {
  Field queue_label = reader.root()["metadata"]["labels"][kKaiQueueLabel];
  if (!queue_label) return;
  reader.warning(queue_label.path(),
                 std::string("the KAI queue is read only for pods that KAI Scheduler schedules, "
                             "and no pod template sets schedulerName: ") +
                     kKaiSchedulerName +
                     ": the pods go to their own scheduler, in no queue; set it in each "
                     "replica's template");
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

void annotate_gang_job(LegacyGang gang, Json* job_metadata) {
  if (gang == LegacyGang::kKai) kai_mark_job(job_metadata);
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
  int64_t jobs = 0;
  std::string which;
  for (const LegacyReplica& replica : job.replicas) {
    jobs += replica.replicas;
    which += (which.empty() ? "" : ", ") + replica.type + " x" + std::to_string(replica.replicas);
  }
  refuse_queued_jobs_admitted_apart(
      reader, jobs, which,
      "convert it to a TrainJob (`kubectl trainjob convert`) and render that with --target "
      "jobset, which Kueue admits as one Workload, or leave the " +
          std::string(job.kind->kind) +
          " to its upstream operator, whose Kueue integration admits it whole");
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
  if (gang != LegacyGang::kNone) warn_gang_order(job, reader);
  if (gang != LegacyGang::kKai) warn_kai_queue_unread(reader);
  const Json& policy = scheduling_policy(job);
  if (!policy.is_object()) return;
  for (const auto& entry : policy.items()) {
    const std::string& field = entry.key();
    // priorityClass reaches Volcano's PodGroup only: neither operator sets it on the pods.
    bool carried =
        (gang == LegacyGang::kVolcano && (field == "minAvailable" || field == "queue" ||
                                          field == "minResources" || field == "priorityClass")) ||
        (gang == LegacyGang::kCoscheduling && (field == "minAvailable" || field == "minResources" ||
                                               field == "scheduleTimeoutSeconds")) ||
        (gang == LegacyGang::kKai && field == "minAvailable");
    if (carried) continue;
    reader.warning(
        "spec.runPolicy.schedulingPolicy." + field,
        gang == LegacyGang::kNone
            ? field +
                  " is dropped: only a gang scheduler uses it, and no pod template "
                  "names one (schedulerName volcano, scheduler-plugins-scheduler or kai-scheduler)"
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
    if (scheduler == kKaiSchedulerName) return LegacyGang::kKai;
  }
  return LegacyGang::kNone;
}

void decorate_pod(const LegacyJob& job, LegacyGang gang, const LegacyReplica& replica,
                  Json* pod_template) {
  Json& metadata = (*pod_template)["metadata"];
  if (gang == LegacyGang::kVolcano) {
    metadata["annotations"][kVolcanoGroupNameAnnotation] = job.name;
    // The Training Operator names the task; mpi-operator sets the group alone.
    if (job.kind->gang_rules == LegacyGangRules::kTrainingOperator)
      metadata["annotations"][kVolcanoTaskSpecAnnotation] = replica.lower;
  } else if (gang == LegacyGang::kCoscheduling) {
    metadata["labels"][kCoschedulingPodGroupLabel] = job.name;
  } else if (gang == LegacyGang::kKai) {
    kai_join_pod(kai_gang(job), pod_template);
  }
}

std::optional<Json> legacy_pod_group(const LegacyJob& job, LegacyGang gang) {
  if (gang == LegacyGang::kNone) return std::nullopt;
  if (gang == LegacyGang::kKai) return kai_pod_group(kai_gang(job));
  const Json& policy = scheduling_policy(job);
  const bool mpi_operator = job.kind->gang_rules == LegacyGangRules::kMpiOperator;
  const int64_t min_member = gang_min_member(job);
  Json spec = Json::object();
  spec["minMember"] = min_member;
  Json min_resources = gang_min_resources(job, min_member);
  const char* api_version = kSchedulingApiVersion;
  if (gang == LegacyGang::kVolcano) {
    api_version = kVolcanoPodGroupApiVersion;
    // Volcano's minResources is a pointer: an empty list is still written.
    if (!min_resources.is_null()) spec["minResources"] = min_resources;
    std::string queue = volcano_queue(job);
    if (!queue.empty()) spec["queue"] = queue;
    std::string priority = string_member(policy, "priorityClass");
    if (priority.empty() && mpi_operator) priority = first_template_priority_class(job);
    if (!priority.empty()) spec["priorityClassName"] = priority;
  } else {
    if (min_resources.is_object() && !min_resources.empty()) spec["minResources"] = min_resources;
    copy_integer(policy, "scheduleTimeoutSeconds", &spec);
    if (mpi_operator && !spec.contains("scheduleTimeoutSeconds"))
      spec["scheduleTimeoutSeconds"] = 0;
  }
  Json metadata = {{"name", job.name}, {"labels", ownership_labels(job.name)}};
  if (!job.name_space.empty()) metadata["namespace"] = job.name_space;
  return Json{
      {"apiVersion", api_version}, {"kind", "PodGroup"}, {"metadata", metadata}, {"spec", spec}};
}

}  // namespace trainjob
