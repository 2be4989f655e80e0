#include "render/kai.h"

#include <algorithm>
#include <map>
#include <vector>

#include "model/jobset_labels.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The queue: the TrainJob's own label (KAI reads its top owner's first), the JobSet's labels
/// render gives the Jobs, then any pod template's; KAI's default queue when none has it.
std::string trainjob_queue(const CompileState& state) {
  Field labels = state.trainjob_reader.root()["metadata"]["labels"];
  std::string queue = labels ? kai_queue_label(*labels.value) : "";
  if (queue.empty()) queue = kai_queue_label(state.jobset_metadata.value("labels", Json()));
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (!queue.empty()) break;
    const Json& pod_template = json_member(json_member(job.job_template, "spec"), "template");
    queue = kai_queue_label(json_member(json_member(pod_template, "metadata"), "labels"));
  }
  return queue.empty() ? kKaiDefaultQueue : queue;
}

bool any_pod_names_kai(CompileState* state) {
  for (ReplicatedJob& job : state->replicated_jobs) {
    if (names_kai(job.pod_spec())) return true;
  }
  return false;
}

void warn_queue_without_kai(const CompileState& state) {
  Field label = state.trainjob_reader.root()["metadata"]["labels"][kKaiQueueLabel];
  if (!label) return;
  state.trainjob_reader.warning(
      label.path(), std::string("the KAI queue is read only for pods that KAI Scheduler "
                                "schedules, and no pod template sets schedulerName: ") +
                        kKaiSchedulerName +
                        ": the pods go to their own scheduler, in no queue; set it in the "
                        "runtime's pod templates or a podTemplateOverride");
}

/// The start-up stage of each replicated job, in order: 0 without dependsOn, else one after
/// the latest stage it waits for, whatever the status (Ready or Complete). `submit --wait`
/// creates a Job only once the ones it depends on reach that status, so a gang that spanned
/// two stages would wait for pods that come only after it has started: each stage is a gang.
/// JobSet admits dependsOn only on earlier jobs, so one pass in order sees every dependency.
std::vector<int64_t> start_stages(const std::vector<ReplicatedJob>& jobs) {
  std::map<std::string, int64_t> stage_of;
  std::vector<int64_t> stages;
  for (const ReplicatedJob& job : jobs) {
    int64_t stage = 0;
    if (job.depends_on.is_array()) {
      for (const Json& dependency : job.depends_on) {
        auto found = stage_of.find(string_member(dependency, "name"));
        if (found != stage_of.end()) stage = std::max(stage, found->second + 1);
      }
    }
    stage_of[job.name] = stage;
    stages.push_back(stage);
  }
  return stages;
}

}  // namespace

bool names_kai(const Json& pod_spec) {
  if (!pod_spec.is_object()) return false;
  auto name = pod_spec.find("schedulerName");
  return name != pod_spec.end() && *name == kKaiSchedulerName;
}

std::string kai_queue_label(const Json& labels) {
  if (!labels.is_object()) return "";
  auto queue = labels.find(kKaiQueueLabel);
  return queue != labels.end() && queue->is_string() ? queue->get<std::string>() : "";
}

Json kai_pod_group(const KaiGang& gang) {
  Json labels = ownership_labels(gang.job);
  labels[kKaiQueueLabel] = gang.queue;
  Json metadata = {{"name", gang.name}, {"labels", labels}};
  if (!gang.name_space.empty()) metadata["namespace"] = gang.name_space;
  Json spec = {{"minMember", gang.min_member}, {"queue", gang.queue}};
  if (!gang.priority_class.empty()) spec["priorityClassName"] = gang.priority_class;
  return Json{{"apiVersion", kKaiPodGroupApiVersion},
              {"kind", "PodGroup"},
              {"metadata", metadata},
              {"spec", spec}};
}

void kai_join_pod(const KaiGang& gang, Json* pod_template) {
  Json& metadata = (*pod_template)["metadata"];
  metadata["labels"][kKaiQueueLabel] = gang.queue;
  metadata["annotations"][kKaiPodGroupAnnotation] = gang.name;
  metadata["annotations"][kKaiSkipPodGrouperAnnotation] = "true";
}

void kai_mark_job(Json* job_metadata) {
  (*job_metadata)["annotations"][kKaiSkipPodGrouperAnnotation] = "true";
}

void apply_kai_gang(CompileState* state) {
  if (!any_pod_names_kai(state)) {
    warn_queue_without_kai(*state);
    return;
  }
  if (state->pod_group_policy) {
    state->runtime_reader.warning(
        state->pod_group_policy.path(),
        std::string("the pods name schedulerName: ") + kKaiSchedulerName +
            ", which does not read this policy's PodGroup: they are ganged by the KAI "
            "PodGroup rendered beside it; drop podGroupPolicy, or schedulerName for its "
            "scheduler");
  }
  std::vector<int64_t> stages = start_stages(state->replicated_jobs);
  const int64_t last = *std::max_element(stages.begin(), stages.end());
  std::vector<KaiGang> gangs;
  for (int64_t stage = 0; stage <= last; ++stage) {
    std::string name = state->trainjob.name;
    if (last > 0) name += "-stage-" + std::to_string(stage);
    gangs.push_back(
        {state->trainjob.name, name, state->trainjob.name_space, trainjob_queue(*state), "", 0});
  }
  for (size_t i = 0; i < stages.size(); ++i) {
    ReplicatedJob& job = state->replicated_jobs[i];
    KaiGang& gang = gangs[static_cast<size_t>(stages[i])];
    gang.min_member += job.replicas * job.count;
    const Json& spec = job.pod_spec();
    if (gang.priority_class.empty() && spec.value("priorityClassName", Json()).is_string())
      gang.priority_class = spec["priorityClassName"].get<std::string>();
    kai_join_pod(gang, &job.pod_template());
    kai_mark_job(&job.job_template["metadata"]);
  }
  for (const KaiGang& gang : gangs)
    state->extra_objects.push_back(kai_pod_group(gang));
}

}  // namespace trainjob
