#include "local/plan/local_success.h"

#include <algorithm>

#include "model/step_place.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

void read_strings(const Json& list, std::vector<std::string>* out) {
  if (!list.is_array()) return;
  for (const Json& entry : list)
    if (entry.is_string()) out->push_back(entry.get<std::string>());
}

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

const char* clean_pod_policy_name(CleanPodPolicy policy) {
  switch (policy) {
    case CleanPodPolicy::kRunning:
      return "Running";
    case CleanPodPolicy::kAll:
      return "All";
    case CleanPodPolicy::kNone:
      break;
  }
  return "None";
}

CleanPodPolicy parse_clean_pod_policy(const std::string& annotation) {
  if (annotation == "Running") return CleanPodPolicy::kRunning;
  if (annotation == "All") return CleanPodPolicy::kAll;
  return CleanPodPolicy::kNone;
}

std::string LocalSuccessRule::describe() const {
  std::string out;
  for (const std::vector<std::string>* list : {&steps, &jobs}) {
    for (const std::string& name : *list)
      out += (out.empty() ? "" : ", ") + name;
  }
  if (out.empty()) out = "every pod";
  return (any ? "any of " : "") + out;
}

std::optional<LocalSuccessRule> local_success_rule(const std::vector<Json>& objects) {
  for (const Json& object : objects) {
    if (string_member(object, "kind") != "Job") continue;
    std::string kind = annotation_of(object, kSourceKindAnnotation);
    if (kind.empty()) continue;
    LocalSuccessRule rule;
    rule.kind = kind;
    rule.clean_pod_policy =
        parse_clean_pod_policy(annotation_of(object, kCleanPodPolicyAnnotation));
    // The annotation may have been edited by hand: unreadable means every pod must succeed.
    Json policy = Json::parse(annotation_of(object, kSuccessPolicyAnnotation), nullptr,
                              /*allow_exceptions=*/false);
    if (!policy.is_object()) return rule;
    rule.any = string_member(policy, "operator") == "Any";
    read_strings(json_member(policy, "targetReplicatedJobs"), &rule.steps);
    read_strings(json_member(policy, "targetJobs"), &rule.jobs);
    return rule;
  }
  return std::nullopt;
}

bool is_rule_target(const LocalSuccessRule& rule, const PodResult& pod) {
  if (rule.steps.empty() && rule.jobs.empty()) return true;
  return contains(rule.steps, pod.step) || contains(rule.jobs, pod.job);
}

RuleVerdict judge(const LocalSuccessRule& rule, const std::vector<PodResult>& pods) {
  size_t targets = 0, succeeded = 0, failed = 0;
  for (const PodResult& pod : pods) {
    if (!is_rule_target(rule, pod)) continue;
    ++targets;
    succeeded += pod.outcome == PodOutcome::kSucceeded ? 1 : 0;
    failed += pod.outcome == PodOutcome::kFailed ? 1 : 0;
  }
  // A rule naming nothing that runs here can never be met.
  if (targets == 0) return RuleVerdict::kFailed;
  if (rule.any) {
    if (succeeded > 0) return RuleVerdict::kMet;
    return failed == targets ? RuleVerdict::kFailed : RuleVerdict::kUndecided;
  }
  if (failed > 0) return RuleVerdict::kFailed;
  return succeeded == targets ? RuleVerdict::kMet : RuleVerdict::kUndecided;
}

}  // namespace trainjob
