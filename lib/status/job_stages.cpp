#include "status/job_stages.h"

#include <algorithm>
#include <map>
#include <set>

#include "kube/objects.h"
#include "kube/resources.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// The annotation parsed, or null when it is absent or not JSON (Jobs on a cluster may have
/// been edited by hand: never trust them to be well formed).
Json annotation_json(const Json& object, const char* key) {
  std::string text = annotation_of(object, key);
  if (text.empty()) return nullptr;
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

bool has_depends_on(const Json& job) {
  return !annotation_of(job, kDependsOnAnnotation).empty();
}

int64_t int_value(const Json& object, const char* key) {
  const Json& value = member_or_empty(object, key);
  return value.is_number_integer() ? value.get<int64_t>() : 0;
}

/// The Job in `live` with that name, or null.
const Json* find_job(const std::vector<Json>& live, const std::string& name) {
  for (const Json& job : live)
    if (name_of(job) == name) return &job;
  return nullptr;
}

bool all_reached(const std::vector<Json>& planned, const std::vector<Json>& live,
                 const std::string& replicated_job, const std::string& status) {
  bool any = false;
  for (const Json& other : planned) {
    if (string_member(other, "kind") != "Job" || step_place_of(other).step != replicated_job)
      continue;
    any = true;
    const Json* now = find_job(live, name_of(other));
    if (now == nullptr || !job_reached(*now, status)) return false;
  }
  return any;
}

}  // namespace

bool SuccessPolicy::is_target(const std::string& step, const std::vector<Json>& jobs) const {
  if (targets.empty() && target_jobs.empty()) return true;
  if (std::find(targets.begin(), targets.end(), step) != targets.end()) return true;
  return std::any_of(jobs.begin(), jobs.end(), [&](const Json& job) {
    return step_place_of(job).step == step && targets_job(job);
  });
}

bool SuccessPolicy::targets_job(const Json& job) const {
  if (std::find(target_jobs.begin(), target_jobs.end(), name_of(job)) != target_jobs.end())
    return true;
  return (targets.empty() && target_jobs.empty()) ||
         std::find(targets.begin(), targets.end(), step_place_of(job).step) != targets.end();
}

namespace {

void read_strings(const Json& list, std::vector<std::string>* out) {
  if (!list.is_array()) return;
  for (const Json& entry : list)
    if (entry.is_string()) out->push_back(entry.get<std::string>());
}

/// How many Jobs the step of `job` has, as its labels or annotations say (1 when unsaid).
int64_t step_job_count(const Json& job) {
  std::string replicas = label_of(job, kReplicatedJobReplicasKey);
  if (replicas.empty()) replicas = annotation_of(job, kReplicatedJobReplicasKey);
  if (replicas.empty()) replicas = annotation_of(job, kReplicasAnnotation);
  if (!replicas.empty() && replicas.size() < 10 &&
      replicas.find_first_not_of("0123456789") == std::string::npos)
    return std::stoll(replicas);
  return 1;
}

/// The Jobs named by the policy: All needs each of them Complete, Any one.
bool named_jobs_met(const SuccessPolicy& policy, const std::vector<Json>& live) {
  size_t complete = 0;
  for (const std::string& name : policy.target_jobs) {
    const Json* job = find_job(live, name);
    if (job != nullptr && job_state(*job) == JobPhase::kComplete) ++complete;
  }
  return policy.op == "Any" ? complete > 0 : complete == policy.target_jobs.size();
}

}  // namespace

std::vector<JobDependency> depends_on_of(const Json& job) {
  std::vector<JobDependency> out;
  Json list = annotation_json(job, kDependsOnAnnotation);
  if (!list.is_array()) return out;
  for (const Json& entry : list) {
    std::string name = string_member(entry, "name");
    std::string status = string_member(entry, "status");
    if (!name.empty() && (status == kDependsOnReady || status == kDependsOnComplete))
      out.push_back({name, status});
  }
  return out;
}

std::optional<SuccessPolicy> success_policy_of(const std::vector<Json>& jobs) {
  for (const Json& job : jobs) {
    Json policy = annotation_json(job, kSuccessPolicyAnnotation);
    if (!policy.is_object()) continue;
    SuccessPolicy out;
    out.op = string_member(policy, "operator", "All");
    if (out.op != "All" && out.op != "Any") continue;
    read_strings(member_or_empty(policy, "targetReplicatedJobs"), &out.targets);
    read_strings(member_or_empty(policy, "targetJobs"), &out.target_jobs);
    return out;
  }
  return std::nullopt;
}

bool job_reached(const Json& job, const std::string& status) {
  JobPhase state = job_state(job);
  if (state == JobPhase::kFailed) return false;
  if (status == kDependsOnComplete) return state == JobPhase::kComplete;
  if (state == JobPhase::kComplete) return true;
  const Json& job_status = member_or_empty(job, "status");
  int64_t parallelism = member_or_empty(job, "spec").contains("parallelism")
                            ? int_value(member_or_empty(job, "spec"), "parallelism")
                            : 1;
  return int_value(job_status, "ready") + int_value(job_status, "succeeded") >= parallelism;
}

bool dependencies_met(const Json& job, const std::vector<Json>& planned,
                      const std::vector<Json>& live) {
  if (std::none_of(planned.begin(), planned.end(), has_depends_on)) {
    if (is_initializer_job(job)) return true;
    for (const Json& other : planned) {
      if (!is_initializer_job(other)) continue;
      const Json* now = find_job(live, name_of(other));
      if (now == nullptr || !job_reached(*now, kDependsOnComplete)) return false;
    }
    return true;
  }
  for (const JobDependency& dependency : depends_on_of(job)) {
    if (!all_reached(planned, live, dependency.replicated_job, dependency.status)) return false;
  }
  return true;
}

bool success_policy_met(const SuccessPolicy& policy, const std::vector<Json>& live) {
  bool named_met = named_jobs_met(policy, live);
  if (!policy.target_jobs.empty() && policy.targets.empty()) return named_met;
  if (policy.op == "Any" && named_met && !policy.target_jobs.empty()) return true;
  std::map<std::string, int64_t> expected, complete;
  for (const Json& job : live) {
    std::string step = step_place_of(job).step;
    if (!policy.is_target(step)) continue;
    expected[step] = std::max(expected[step], step_job_count(job));
    if (job_state(job) == JobPhase::kComplete) ++complete[step];
  }
  if (policy.op == "Any") {
    return std::any_of(complete.begin(), complete.end(),
                       [](const auto& entry) { return entry.second > 0; });
  }
  // Every target must be there: a target replicated job with no live Job is not complete.
  std::set<std::string> wanted(policy.targets.begin(), policy.targets.end());
  for (const auto& [step, count] : expected)
    wanted.insert(step);
  if (wanted.empty()) return false;
  for (const std::string& step : wanted) {
    if (expected.count(step) == 0 || complete[step] < expected[step]) return false;
  }
  return policy.target_jobs.empty() || named_met;
}

bool is_initializer_job(const Json& object) {
  if (string_member(object, "kind") != "Job") return false;
  std::string step = step_place_of(object).step;
  const std::string suffix = "-initializer";
  return step.size() > suffix.size() &&
         step.compare(step.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace trainjob
