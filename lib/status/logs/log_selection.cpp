#include "status/logs/log_selection.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "kube/objects.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "status/pod_state.h"

namespace trainjob {
namespace {

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words)
    out += (out.empty() ? "" : ", ") + word;
  return out;
}

const Json& template_spec(const Json& job) {
  return member_or_empty(member_or_empty(member_or_empty(job, "spec"), "template"), "spec");
}

}  // namespace

std::vector<std::string> job_steps(const std::vector<Json>& jobs) {
  std::set<std::string> steps;
  for (const Json& job : jobs) {
    std::string step = step_place_of(job).step;
    if (!step.empty()) steps.insert(step);
  }
  return {steps.begin(), steps.end()};
}

std::string resolve_step(const std::string& asked, const std::vector<std::string>& steps,
                         std::string* error) {
  if (std::find(steps.begin(), steps.end(), asked) != steps.end()) return asked;
  std::vector<std::string> alike;
  for (const std::string& step : steps)
    if (same_ignoring_case(step, asked)) alike.push_back(step);
  if (alike.size() == 1) return alike.front();
  *error = alike.empty()
               ? "no step \"" + asked + "\"; its steps are " + joined(steps)
               : "step \"" + asked + "\" could be any of " + joined(alike) + ": give it as spelled";
  return "";
}

std::vector<std::string> container_names(const Json& pod_spec) {
  std::vector<std::string> names;
  for (const char* key : {"initContainers", "containers"}) {
    const Json& list = member_or_empty(pod_spec, key);
    if (!list.is_array()) continue;
    for (const Json& container : list)
      names.push_back(string_member(container, "name"));
  }
  return names;
}

bool has_container(const Json& pod_spec, const std::string& name) {
  std::vector<std::string> names = container_names(pod_spec);
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string check_container(const std::string& container, const std::vector<const Json*>& jobs) {
  std::set<std::string> there;
  for (const Json* job : jobs) {
    if (has_container(template_spec(*job), container)) return "";
    for (const std::string& name : container_names(template_spec(*job)))
      there.insert(name);
  }
  return "container " + container + " is not valid for the pods of " +
         (jobs.size() == 1 ? kKubectlJobPrefix + name_of(*jobs.front()) : "these Jobs") +
         ": their containers are " + joined({there.begin(), there.end()});
}

const Json* container_status(const Json& pod, const std::string& name) {
  for (const char* key : {"containerStatuses", "initContainerStatuses"}) {
    const Json& statuses = member_or_empty(member_or_empty(pod, "status"), key);
    if (!statuses.is_array()) continue;
    for (const Json& entry : statuses)
      if (string_member(entry, "name") == name) return &entry;
  }
  return nullptr;
}

bool never_started(const Json* status) {
  if (status == nullptr) return true;
  return member_or_empty(*status, "state").contains("waiting") &&
         !member_or_empty(*status, "lastState").contains("terminated");
}

std::string waiting_text(const Json& pod, const Json* status) {
  std::string reason = pod_reason(pod, {});
  if (reason.empty() && status != nullptr)
    reason = string_member(member_or_empty(member_or_empty(*status, "state"), "waiting"), "reason");
  std::string said = job_phase_name(pod_phase_of(pod));
  if (!reason.empty()) said.append(": ").append(reason);
  return said;
}

bool crash_looping(const Json* status) {
  if (status == nullptr) return false;
  const Json& waiting = member_or_empty(member_or_empty(*status, "state"), "waiting");
  return string_member(waiting, "reason") == "CrashLoopBackOff";
}

}  // namespace trainjob
