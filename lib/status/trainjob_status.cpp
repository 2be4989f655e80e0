#include "status/trainjob_status.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "kube/objects.h"
#include "kube/resources.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "status/cluster_output.h"
#include "status/job_stages.h"
#include "status/pod_state.h"
#include "status/restart_attempt.h"

namespace trainjob {
namespace {

std::string pod_key_index(const Json& pod, const char* key) {
  const Json& metadata = member_or_empty(pod, "metadata");
  std::string value = string_member(member_or_empty(metadata, "labels"), key);
  if (value.empty()) value = string_member(member_or_empty(metadata, "annotations"), key);
  return value;
}

/// Target steps are marked; a target not created yet (it waits for others) is shown too.
void mark_targets(const SuccessPolicy& policy, const std::vector<Json>& jobs,
                  std::map<std::string, StepStatus>* steps, std::vector<std::string>* order) {
  for (auto& [name, step] : *steps)
    step.success_policy_target = policy.is_target(name, jobs);
  for (const std::string& target : policy.targets) {
    if (steps->count(target) != 0) continue;
    order->push_back(target);
    (*steps)[target] = StepStatus{target, JobPhase::kNotCreated, {}, true};
  }
}

std::string suspended_message(const std::string& name, const std::vector<Json>& jobs) {
  std::string queue = label_of(jobs[0], kKueueQueueLabel);
  if (!queue.empty()) return "waiting for Kueue admission in queue " + queue;
  return "suspended; `kubectl trainjob resume " + name + "` starts it";
}

/// A node: its step, the Job's index in the step and the pod's index.
using NodeKey = std::tuple<std::string, int, int>;

/// The node a pod stands for (a legacy kind's pods: the replica index, each of its Jobs
/// running one pod).
NodeKey node_key(const Json& pod) {
  StepPlace place = step_place_of(pod);
  int completion = label_index(pod_key_index(pod, kCompletionIndexAnnotation));
  if (place.legacy) return {place.step, 0, label_index(place.job_index)};
  return {place.step, label_index(place.job_index), completion};
}

/// What the Jobs say, step by step, before the pods are looked at.
struct JobsSummary {
  std::map<std::string, StepStatus> steps;
  std::vector<std::string> step_order;  ///< as the steps first appear among the Jobs
  bool any_failed = false;
  bool all_complete = false;
  bool all_suspended = false;
};

/// The first failed Job is the one the TrainJob failed of: its reason and message are the
/// TrainJob's.
void take_failure(const Json& job, TrainJobStatus* out) {
  const Json* failed = status_condition(job, kJobFailedCondition);
  out->reason = string_member(*failed, "reason");
  out->completion_time = string_member(*failed, "lastTransitionTime");
  out->message =
      "Job " + name_of(job) + " failed: " + out->reason + ": " + string_member(*failed, "message");
}

/// A step is in its first Job's state until another Job of it fails or runs: one failed Job
/// fails the step, one running Job (none failed) runs it.
void add_to_step(const Json& job, JobPhase state, StepStatus* step) {
  step->jobs.push_back(name_of(job));
  if (step->jobs.size() == 1 || state == JobPhase::kFailed ||
      (state == JobPhase::kRunning && step->state != JobPhase::kFailed))
    step->state = state;
}

JobsSummary summarize_jobs(const std::vector<Json>& jobs, TrainJobStatus* out) {
  JobsSummary summary;
  summary.all_complete = summary.all_suspended = !jobs.empty();
  for (const Json& job : jobs) {
    std::string step = step_place_of(job).step;
    if (summary.steps.count(step) == 0) summary.step_order.push_back(step);
    StepStatus& entry = summary.steps[step];
    entry.name = step;
    JobPhase state = job_state(job);
    add_to_step(job, state, &entry);
    if (state == JobPhase::kFailed && !summary.any_failed) take_failure(job, out);
    summary.any_failed = summary.any_failed || state == JobPhase::kFailed;
    summary.all_complete = summary.all_complete && state == JobPhase::kComplete;
    summary.all_suspended = summary.all_suspended && state == JobPhase::kSuspended;
  }
  return summary;
}

/// The newest pod per step, job and index stands for that node: a retried pod replaces the
/// one before it.
std::map<NodeKey, const Json*> newest_pods(const std::vector<Json>& pods) {
  std::map<NodeKey, const Json*> newest;
  // Timestamps have whole seconds: of two pods created in one, the one that did not fail
  // (still active, or succeeded since) is the retry of the one that failed.
  auto created = [](const Json* p) {
    bool failed = pod_phase_of(*p) == JobPhase::kFailed;
    return string_member((*p)["metadata"], "creationTimestamp") + (failed ? "0" : "1") +
           name_of(*p);
  };
  for (const Json& pod : pods) {
    const Json*& slot = newest[node_key(pod)];
    if (slot == nullptr || created(&pod) > created(slot)) slot = &pod;
  }
  return newest;
}

NodeStatus node_status(const NodeKey& key, const Json& pod, const std::vector<Json>& events) {
  NodeStatus node;
  std::tie(node.step, node.job_index, node.index) = key;
  node.label = node_label(step_place_of(pod), node.index);
  node.pod = name_of(pod);
  node.node_name = string_member(member_or_empty(pod, "spec"), "nodeName");
  node.phase = pod_phase_of(pod);
  node.ready = status_condition_true(pod, "Ready");
  const Json& status = member_or_empty(pod, "status");
  if (status.contains("containerStatuses")) {
    for (const Json& container : status["containerStatuses"])
      node.restarts += container.value("restartCount", 0);
  }
  node.reason = pod_reason(pod, events);
  node.exit_code = last_exit_code(pod);
  return node;
}

/// When a Job completed: its completionTime, else its Complete condition's transition.
std::string completed_at(const Json& job) {
  std::string time = string_member(member_or_empty(job, "status"), "completionTime");
  const Json* complete = status_condition(job, kJobCompleteCondition);
  if (time.empty() && complete != nullptr) time = string_member(*complete, "lastTransitionTime");
  return time;
}

/// When `policy` was met: the last of its target Jobs to complete (All), or the first (Any);
/// empty when one of those Jobs does not say.
std::string policy_met_at(const SuccessPolicy& policy, const std::vector<Json>& jobs) {
  std::string out;
  for (const Json& job : jobs) {
    if (!policy.targets_job(job) || job_state(job) != JobPhase::kComplete) continue;
    std::string time = completed_at(job);
    if (time.empty()) return "";
    bool first = out.empty();
    if (first || (policy.op == "Any" ? time < out : time > out)) out = time;
  }
  return out;
}

/// Failed is terminal (Trainer 2.4, kubeflow/trainer#3891): a success policy met after a Job
/// had failed does not make the TrainJob complete. `failed_at` is that failure's time.
bool failed_before_success(const SuccessPolicy& policy, const std::vector<Json>& jobs,
                           const std::string& failed_at) {
  std::string met_at = policy_met_at(policy, jobs);
  return !failed_at.empty() && !met_at.empty() && failed_at < met_at;
}

/// In order: no Jobs yet is Pending, a met success policy (or every Job complete) wins over
/// a failed Job, a failure over suspension; otherwise a running pod makes it Running.
void set_phase(const std::string& name, const std::vector<Json>& jobs, const JobsSummary& summary,
               bool complete, bool started, TrainJobStatus* out) {
  bool any_running =
      started || std::any_of(out->nodes.begin(), out->nodes.end(),
                             [](const NodeStatus& n) { return n.phase == JobPhase::kRunning; });
  if (jobs.empty()) {
    out->phase = JobPhase::kPending;
  } else if (complete) {
    out->phase = JobPhase::kComplete;
    out->message.clear();  // a Job that is no target may have failed: that is no news now
    out->reason.clear();
  } else if (summary.any_failed) {
    out->phase = JobPhase::kFailed;
  } else if (summary.all_suspended) {
    out->phase = JobPhase::kSuspended;
    out->message = suspended_message(name, jobs);
  } else {
    out->phase = any_running ? JobPhase::kRunning : JobPhase::kPending;
  }
}

/// An unfinished TrainJob without a message says why its first stuck node is stuck; a failed
/// one adds what its failed pods ran into, where the Job's message does not say it already.
void add_node_reasons(TrainJobStatus* out) {
  for (const NodeStatus& node : out->nodes) {
    if (node.reason.empty()) continue;
    if (out->message.empty() && !out->finished()) out->message = node.label + ": " + node.reason;
    if (out->phase == JobPhase::kFailed && node.phase == JobPhase::kFailed &&
        out->message.find(node.reason) == std::string::npos)
      out->message += "; " + node.label + ": " + node.reason;
  }
}

/// Whether the TrainJob ran already: a pod got past Pending, or a Job counts finished pods.
/// From then on it is Running until it finishes, even while the newest pod of a retried node
/// is Pending again or every pod ended before its Job says Complete.
bool has_started(const std::vector<Json>& jobs, const std::vector<Json>& pods) {
  for (const Json& pod : pods) {
    JobPhase phase = pod_phase_of(pod);
    if (phase == JobPhase::kRunning || phase == JobPhase::kSucceeded || phase == JobPhase::kFailed)
      return true;
  }
  return std::any_of(jobs.begin(), jobs.end(), [](const Json& job) {
    const Json& status = member_or_empty(job, "status");
    for (const char* count : {"succeeded", "failed"}) {
      const Json& value = json_member(status, count);
      if (value.is_number_integer() && value.get<int64_t>() > 0) return true;
    }
    return false;
  });
}

/// The newest failed pod of `node` other than its current one: what its Job retried.
const Json* failed_before(const std::vector<Json>& pods, const NodeStatus& node) {
  const Json* found = nullptr;
  for (const Json& pod : pods) {
    if (name_of(pod) == node.pod || pod_phase_of(pod) != JobPhase::kFailed) continue;
    if (node_key(pod) != NodeKey{node.step, node.job_index, node.index}) continue;
    if (found == nullptr || string_member(pod["metadata"], "creationTimestamp") >
                                string_member((*found)["metadata"], "creationTimestamp"))
      found = &pod;
  }
  return found;
}

/// "pod X: reason" of the first node being retried: its container restarted and is not
/// ready again, or an older pod of the node failed and the new one has not got ready yet.
std::string restarting_node(const std::vector<Json>& pods, const std::vector<NodeStatus>& nodes) {
  for (const NodeStatus& node : nodes) {
    if (node.phase != JobPhase::kPending && node.phase != JobPhase::kRunning) continue;
    if (node.phase == JobPhase::kRunning && node.ready) continue;
    if (node.restarts > 0)
      return "pod " + node.pod + ": " + (node.reason.empty() ? "restarted" : node.reason);
    if (const Json* failed = failed_before(pods, node)) {
      std::string reason = pod_reason(*failed, {});
      return "pod " + name_of(*failed) + ": " + (reason.empty() ? "Failed" : reason);
    }
  }
  return "";
}

/// Why a node of a Job stopped for `policy` shows no pod, or a stopped one.
std::string stopped_reason(const std::string& policy, JobPhase phase) {
  if (phase == JobPhase::kStopped) return "stopped by cleanPodPolicy " + policy;
  return "pod deleted by cleanPodPolicy " + policy;  // All: the pods of finished Jobs too
}

/// A row for a Job `submit --wait` stopped for a cleanPodPolicy whose pod is gone.
NodeStatus stopped_node(const Json& job, const std::string& policy) {
  StepPlace place = step_place_of(job);
  NodeStatus node;
  node.step = place.step;
  node.index = label_index(place.job_index);  // a legacy kind's Job runs one replica
  node.label = node_label(place, node.index);
  JobPhase state = job_state(job);
  node.phase = state == JobPhase::kComplete ? JobPhase::kSucceeded
               : state == JobPhase::kFailed ? JobPhase::kFailed
                                            : JobPhase::kStopped;
  node.reason = stopped_reason(policy, node.phase);
  return node;
}

/// The nodes of Jobs `submit --wait` stopped for a legacy kind's cleanPodPolicy show as
/// Stopped, not Failed (their pods were ended on purpose); such a Job whose pod is gone
/// already gets a row of its own, so the job still shows every node.
void mark_stopped_nodes(const std::vector<Json>& jobs, std::vector<NodeStatus>* nodes) {
  for (const Json& job : jobs) {
    std::string policy = annotation_of(job, kStoppedByAnnotation);
    if (policy.empty()) continue;
    StepPlace place = step_place_of(job);
    int index = label_index(place.job_index);
    auto it = std::find_if(nodes->begin(), nodes->end(), [&](const NodeStatus& node) {
      return node.step == place.step && node.job_index == 0 && node.index == index;
    });
    if (it == nodes->end()) {
      nodes->push_back(stopped_node(job, policy));
    } else if (job_state(job) == JobPhase::kStopped) {
      it->phase = JobPhase::kStopped;
      it->ready = false;
      it->reason = stopped_reason(policy, JobPhase::kStopped);
    }
  }
  std::stable_sort(nodes->begin(), nodes->end(), [](const NodeStatus& a, const NodeStatus& b) {
    return std::tie(a.step, a.job_index, a.index) < std::tie(b.step, b.job_index, b.index);
  });
}

/// startTime from the first Job that started; completionTime, once it completed, from the
/// last Job that did (a failure's time was taken with the failure).
void set_times(const std::vector<Json>& jobs, TrainJobStatus* out) {
  if (out->phase == JobPhase::kComplete) out->completion_time.clear();
  for (const Json& job : jobs) {
    const Json& status = member_or_empty(job, "status");
    std::string started = string_member(status, "startTime");
    if (!started.empty() && (out->start_time.empty() || started < out->start_time))
      out->start_time = started;
    std::string completed = string_member(status, "completionTime");
    if (out->phase == JobPhase::kComplete && completed > out->completion_time)
      out->completion_time = completed;
  }
  if (!out->finished()) out->completion_time.clear();
}

std::string suspended_since(const std::vector<Json>& jobs) {
  for (const Json& job : jobs)
    if (const Json* suspended = status_condition(job, "Suspended"))
      return string_member(*suspended, "lastTransitionTime");
  return "";
}

/// The conditions upstream's TrainJob would carry now: Suspended, Complete or Failed, with
/// the reasons its controller copies from the JobSet's (AllJobsCompleted, FailedJobs).
std::vector<StatusCondition> status_conditions(const TrainJobStatus& status,
                                               const std::vector<Json>& jobs, bool by_policy) {
  std::vector<StatusCondition> out;
  if (status.phase == JobPhase::kSuspended)
    out.push_back({"Suspended", "True", "Suspended", status.message, suspended_since(jobs)});
  if (status.phase == JobPhase::kComplete)
    out.push_back({"Complete", "True", "AllJobsCompleted",
                   by_policy ? "the success policy's Jobs completed" : "every Job completed",
                   status.completion_time});
  if (status.phase == JobPhase::kFailed)
    out.push_back(
        {"Failed", "True", failed_reason(status), status.message, status.completion_time});
  return out;
}
}  // namespace

std::string source_kind_of(const std::vector<Json>& jobs) {
  for (const Json& job : jobs) {
    std::string kind = string_member(
        member_or_empty(member_or_empty(job, "metadata"), "annotations"), kSourceKindAnnotation);
    if (!kind.empty()) return kind;
  }
  return "TrainJob";
}

std::string source_api_version_of(const std::vector<Json>& jobs) {
  if (source_kind_of(jobs) == "TrainJob") return kTrainerApiVersion;
  for (const Json& job : jobs)
    if (label_of(job, kOperatorNameLabel) == kMpiOperatorName) return kKubeflowV2beta1ApiVersion;
  return kKubeflowV1ApiVersion;
}

JobPhase job_state(const Json& job) {
  if (status_condition_true(job, kJobFailedCondition)) return JobPhase::kFailed;
  if (status_condition_true(job, kJobCompleteCondition)) return JobPhase::kComplete;
  if (!annotation_of(job, kStoppedByAnnotation).empty()) return JobPhase::kStopped;
  if (member_or_empty(job, "spec").value("suspend", false)) return JobPhase::kSuspended;
  const Json& status = member_or_empty(job, "status");
  // Pods that succeeded count as running ones (as JobSet counts them ready): between its
  // pods' end and its Complete condition (SuccessCriteriaMet) a Job has none active.
  bool running = status.value("active", 0) > 0 && status.value("ready", 0) > 0;
  return running || status.value("succeeded", 0) > 0 ? JobPhase::kRunning : JobPhase::kPending;
}

TrainJobStatus compute_status(const std::string& name, const std::vector<Json>& jobs,
                              const std::vector<Json>& pods, const std::vector<Json>& events) {
  TrainJobStatus out;
  out.kind = source_kind_of(jobs);
  out.api_version = source_api_version_of(jobs);
  out.name = name;
  JobsSummary summary = summarize_jobs(jobs, &out);
  for (const auto& [key, pod] : newest_pods(pods))
    out.nodes.push_back(node_status(key, *pod, events));
  mark_stopped_nodes(jobs, &out.nodes);
  std::optional<SuccessPolicy> policy = success_policy_of(jobs);
  if (policy) mark_targets(*policy, jobs, &summary.steps, &summary.step_order);
  for (const std::string& step : summary.step_order)
    out.steps.push_back(summary.steps[step]);
  // With a success policy only its targets make the TrainJob complete, and they do even
  // when a Job that is no target failed on the way.
  bool complete =
      policy ? success_policy_met(*policy, jobs) : summary.all_complete && !summary.any_failed;
  if (complete && policy && summary.any_failed &&
      failed_before_success(*policy, jobs, out.completion_time))
    complete = false;
  set_phase(name, jobs, summary, complete, has_started(jobs, pods), &out);
  add_node_reasons(&out);
  if (out.phase == JobPhase::kRunning) out.restarting = restarting_node(pods, out.nodes);
  set_times(jobs, &out);
  RestartBudget budget = restart_budget_of(jobs);
  out.restart_attempt = budget.attempt;
  out.max_restarts = budget.max_restarts;
  out.conditions = status_conditions(out, jobs, policy.has_value());
  return out;
}

}  // namespace trainjob
