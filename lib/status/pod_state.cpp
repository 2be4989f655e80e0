#include "status/pod_state.h"

#include "kube/objects.h"
#include "load/json.h"

namespace trainjob {
namespace {

std::string exit_text(const Json& terminated) {
  std::string reason = string_member(terminated, "reason", "Error");
  return reason + " (exit code " + std::to_string(terminated.value("exitCode", 0)) + ")";
}

std::string container_reason(const Json& status) {
  const Json& state = member_or_empty(status, "state");
  const Json& last = member_or_empty(status, "lastState");
  if (state.contains("waiting")) {
    std::string reason = string_member(state["waiting"], "reason");
    std::string message = string_member(state["waiting"], "message");
    if (reason == "ContainerCreating" || reason == "PodInitializing" || reason.empty()) return "";
    std::string out = reason + (message.empty() ? "" : ": " + message);
    if (last.contains("terminated")) out += "; last exit: " + exit_text(last["terminated"]);
    return out;
  }
  if (state.contains("terminated") && state["terminated"].value("exitCode", 0) != 0)
    return exit_text(state["terminated"]);
  if (last.contains("terminated") && state.contains("running"))
    return "restarted after " + exit_text(last["terminated"]);
  return "";
}

}  // namespace

bool status_condition_true(const Json& object, const char* type) {
  const Json& status = member_or_empty(object, "status");
  if (!status.contains("conditions") || !status["conditions"].is_array()) return false;
  for (const Json& condition : status["conditions"]) {
    if (string_member(condition, "type") == type && string_member(condition, "status") == "True")
      return true;
  }
  return false;
}

const Json* status_condition(const Json& object, const char* type) {
  const Json& conditions = member_or_empty(member_or_empty(object, "status"), "conditions");
  if (!conditions.is_array()) return nullptr;
  for (const Json& c : conditions) {
    if (string_member(c, "type") == type) return &c;
  }
  return nullptr;
}

std::optional<int> last_exit_code(const Json& pod) {
  const Json& statuses = member_or_empty(member_or_empty(pod, "status"), "containerStatuses");
  if (!statuses.is_array()) return std::nullopt;
  for (const char* state : {"state", "lastState"}) {
    for (const Json& container : statuses) {
      const Json& terminated = member_or_empty(member_or_empty(container, state), "terminated");
      if (terminated.contains("exitCode") && terminated["exitCode"].is_number_integer())
        return terminated["exitCode"].get<int>();
    }
  }
  return std::nullopt;
}

JobPhase pod_phase_of(const Json& pod) {
  const Json& phase = json_member(json_member(pod, "status"), "phase");
  if (!phase.is_string()) return JobPhase::kPending;
  return parse_job_phase(phase.get_ref<const std::string&>()).value_or(JobPhase::kUnknown);
}

std::string pod_reason(const Json& pod, const std::vector<Json>& events) {
  const Json& status = member_or_empty(pod, "status");
  if (const Json* scheduled = status_condition(pod, "PodScheduled");
      scheduled != nullptr && string_member(*scheduled, "status") == "False") {
    return string_member(*scheduled, "reason", "Unschedulable") + ": " +
           string_member(*scheduled, "message");
  }
  for (const char* list : {"initContainerStatuses", "containerStatuses"}) {
    if (!status.contains(list)) continue;
    for (const Json& container : status[list]) {
      std::string reason = container_reason(container);
      if (!reason.empty()) return reason;
    }
  }
  JobPhase phase = pod_phase_of(pod);
  if (phase == JobPhase::kRunning || phase == JobPhase::kSucceeded) return "";
  std::string latest;
  for (const Json& event : events) {
    const Json& involved = member_or_empty(event, "involvedObject");
    std::string reason = string_member(event, "reason");
    if (string_member(involved, "name") != name_of(pod)) continue;
    if (reason == "FailedMount" || reason == "FailedAttachVolume" || reason == "FailedScheduling" ||
        reason == "Failed")
      latest = reason + ": " + string_member(event, "message");
  }
  if (!latest.empty()) return latest;
  if (phase == JobPhase::kFailed) return string_member(status, "reason", job_phase_name(phase));
  return "";
}

}  // namespace trainjob
