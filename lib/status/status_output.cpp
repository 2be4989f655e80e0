#include "status/status_output.h"

#include "model/trainer_progress.h"
#include "status/cluster_output.h"

namespace trainjob {

namespace {

/// Kueue's word on each Job, while one of them waits for it (a half-admitted job shows which).
std::string kueue_lines(const std::vector<KueueWorkloadStatus>& workloads) {
  bool waiting = false;
  for (const KueueWorkloadStatus& workload : workloads)
    waiting = waiting || (!workload.admitted && !workload.finished);
  std::string out;
  if (waiting)
    for (const KueueWorkloadStatus& workload : workloads)
      out += kueue_line(workload) + "\n";
  return out;
}

Json kueue_json(const std::vector<KueueWorkloadStatus>& workloads) {
  Json out = Json::array();
  for (const KueueWorkloadStatus& w : workloads) {
    Json entry = {{"job", w.job},
                  {"workload", w.workload},
                  {"localQueue", w.queue},
                  {"admitted", w.admitted},
                  {"finished", w.finished}};
    if (!w.reason.empty()) entry["reason"] = w.reason;
    if (!w.message.empty()) entry["message"] = w.message;
    if (w.position) {
      entry["positionInLocalQueue"] = *w.position;
      entry["positionFrom"] = w.position_source;
    }
    out.push_back(entry);
  }
  return out;
}

}  // namespace

std::string format_status_table(const TrainJobStatus& status) {
  std::vector<std::vector<std::string>> rows = {
      {"STEP", "NODE", "POD", "NODE-NAME", "PHASE", "READY", "RESTARTS", "REASON"}};
  for (const NodeStatus& node : status.nodes) {
    rows.push_back({node.step, node.label, node.pod.empty() ? "<none>" : node.pod,
                    node.node_name.empty() ? "<none>" : node.node_name, job_phase_name(node.phase),
                    node.ready ? "true" : "false", std::to_string(node.restarts), node.reason});
  }
  std::string out =
      status.kind + " " + status.name + ": " + painted_phase(phase_text(status), stdout) + "\n";
  if (!status.message.empty()) out += status.message + "\n";
  if (status.max_restarts > 0 || status.restart_attempt > 0) {
    out += "Restart attempt: " + std::to_string(status.restart_attempt) + " of " +
           std::to_string(status.max_restarts) + " (failurePolicy.maxRestarts)";
    // Nothing in the cluster restarts it: say what does.
    if (status.phase == JobPhase::kFailed && status.restart_attempt < status.max_restarts)
      out += "; `kubectl trainjob wait " + status.name +
             " --for=condition=Complete --restart` restarts it";
    out += "\n";
  }
  out += kueue_lines(status.kueue);
  if (status.progress || status.bad_progress.count > 0) {
    // A program that prints its progress wrongly is told so, not shown no progress at all.
    std::string bad = status.bad_progress.describe();
    out += "Progress: " + (status.progress ? format_progress(*status.progress) : "none read") +
           (bad.empty() ? "" : "; " + bad) + "\n";
  }
  for (const StepStatus& step : status.steps)
    out += "  step " + step.name + ": " + job_phase_name(step.state) +
           (step.success_policy_target ? "" : " (not a success-policy target)") + "\n";
  if (status.nodes.empty()) {
    // A header over no rows reads as a failure to show them.
    return out + "\n" +
           (status.phase == JobPhase::kSuspended
                ? "No pods: the " + status.kind + " is suspended.\n"
                : std::string("No pods.\n"));
  }
  return out + "\n" + format_columns(rows);
}

std::string phase_text(const TrainJobStatus& status) {
  std::string text = job_phase_name(status.phase);
  if (!status.restarting.empty()) text += " (restarting " + status.restarting + ")";
  return text;
}

namespace {

Json conditions_json(const std::vector<StatusCondition>& conditions) {
  Json out = Json::array();
  for (const StatusCondition& c : conditions) {
    Json entry = {{"type", c.type}, {"status", c.status}, {"reason", c.reason}};
    if (!c.message.empty()) entry["message"] = c.message;
    if (!c.last_transition_time.empty()) entry["lastTransitionTime"] = c.last_transition_time;
    out.push_back(entry);
  }
  return out;
}

}  // namespace

Json status_json(const TrainJobStatus& status, const std::string& name_space) {
  Json steps = Json::array();
  for (const StepStatus& step : status.steps) {
    Json entry = {{"name", step.name}, {"state", job_phase_name(step.state)}, {"jobs", step.jobs}};
    if (!step.success_policy_target) entry["successPolicyTarget"] = false;
    steps.push_back(entry);
  }
  Json nodes = Json::array();
  for (const NodeStatus& node : status.nodes) {
    Json entry = {{"step", node.step},          {"node", node.label},
                  {"index", node.index},        {"pod", node.pod},
                  {"nodeName", node.node_name}, {"phase", job_phase_name(node.phase)},
                  {"ready", node.ready},        {"restarts", node.restarts}};
    if (!node.reason.empty()) entry["reason"] = node.reason;
    if (node.exit_code) entry["exitCode"] = *node.exit_code;
    nodes.push_back(entry);
  }
  Json out = {
      {"apiVersion", status.api_version},
      {"kind", status.kind},
      {"metadata", {{"name", status.name}, {"namespace", name_space}}},
      {"status", {{"phase", job_phase_name(status.phase)}, {"steps", steps}, {"nodes", nodes}}}};
  if (!status.message.empty()) out["status"]["message"] = status.message;
  if (!status.reason.empty()) out["status"]["reason"] = status.reason;
  if (status.progress) out["status"]["trainerStatus"] = trainer_status_json(*status.progress);
  if (!status.restarting.empty()) out["status"]["restarting"] = status.restarting;
  // JobSet's own status field for the attempt; 0 is left out, as JobSet's omitempty does.
  if (status.restart_attempt > 0) out["status"]["restarts"] = status.restart_attempt;
  if (!status.start_time.empty()) out["status"]["startTime"] = status.start_time;
  if (!status.completion_time.empty()) out["status"]["completionTime"] = status.completion_time;
  out["status"]["conditions"] = conditions_json(status.conditions);
  if (!status.kueue.empty()) out["status"]["kueue"] = kueue_json(status.kueue);
  return out;
}

}  // namespace trainjob
