#include "cluster/wait_condition.h"

#include <algorithm>
#include <cctype>

#include "kube/objects.h"
#include "output/jsonpath.h"
#include "util/text.h"

namespace trainjob {
namespace {

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return ascii_lower(a) == ascii_lower(b);
}

/// `{.status.phase}=Complete`, or kubectl's relaxed `.status.phase=Complete`.
bool parse_jsonpath(const std::string& text, WaitCondition* out) {
  size_t end = std::string::npos;
  if (!text.empty() && text[0] == '{') {
    end = text.rfind('}');
    if (end == std::string::npos) return false;
    out->jsonpath = text.substr(0, end + 1);
    ++end;
  } else {
    end = text.find('=');
    out->jsonpath = "{" + text.substr(0, end) + "}";
  }
  if (end < text.size()) {
    if (text[end] != '=') return false;
    out->value = text.substr(end + 1);
  }
  std::string error;
  return out->jsonpath.size() > 2 && evaluate_jsonpath(Json::object(), out->jsonpath, &error);
}

bool condition_holds(const Json& object, const WaitCondition& condition) {
  const Json& conditions = member_or_empty(member_or_empty(object, "status"), "conditions");
  if (!conditions.is_array()) return false;
  return std::any_of(conditions.begin(), conditions.end(), [&](const Json& c) {
    return same_ignoring_case(string_member(c, "type"), condition.type) &&
           same_ignoring_case(string_member(c, "status"), condition.status);
  });
}

/// The phase that, once reached, means the condition never will be: Failed for Complete=True,
/// Complete for Failed=True.
std::optional<JobPhase> dead_end(const WaitCondition& condition) {
  if (!same_ignoring_case(condition.status, "True")) return std::nullopt;
  if (same_ignoring_case(condition.type, "Complete")) return JobPhase::kFailed;
  if (same_ignoring_case(condition.type, "Failed")) return JobPhase::kComplete;
  return std::nullopt;
}

}  // namespace

std::optional<WaitCondition> parse_wait_for(const std::string& text, std::string* error) {
  WaitCondition out;
  const std::string condition_prefix = "condition=";
  const std::string jsonpath_prefix = "jsonpath=";
  if (text == "delete") {
    out.kind = WaitCondition::Kind::kDelete;
    return out;
  }
  if (text == "create") {
    out.kind = WaitCondition::Kind::kCreate;
    return out;
  }
  if (text.rfind(condition_prefix, 0) == 0) {
    std::string rest = text.substr(condition_prefix.size());
    size_t equals = rest.find('=');
    out.type = rest.substr(0, equals);
    if (equals != std::string::npos) out.status = rest.substr(equals + 1);
    if (!out.type.empty() && !out.status.empty()) return out;
  } else if (text.rfind(jsonpath_prefix, 0) == 0) {
    out.kind = WaitCondition::Kind::kJsonPath;
    if (parse_jsonpath(text.substr(jsonpath_prefix.size()), &out)) return out;
  }
  *error = "--for: unrecognized condition \"" + text +
           "\": expected condition=Complete, condition=Failed (any condition=TYPE[=STATUS]), "
           "delete, create or jsonpath='{.status.phase}'=Complete";
  return std::nullopt;
}

WaitCheck check_wait(const WaitCondition& condition, const TrainJobStatus& status,
                     const Json& object) {
  if (condition.kind == WaitCondition::Kind::kCreate) return WaitCheck::kMet;
  if (condition.kind == WaitCondition::Kind::kJsonPath) {
    std::string error;
    std::optional<std::string> found = evaluate_jsonpath(object, condition.jsonpath, &error);
    bool met = found && (condition.value ? *found == *condition.value : !found->empty());
    return met ? WaitCheck::kMet : WaitCheck::kNotYet;
  }
  if (condition_holds(object, condition)) return WaitCheck::kMet;
  std::optional<JobPhase> end = dead_end(condition);
  return end && status.phase == *end ? WaitCheck::kNever : WaitCheck::kNotYet;
}

std::string wait_object_name(const TrainJobStatus& status) {
  std::string group = status.api_version.substr(0, status.api_version.find('/'));
  return ascii_lower(status.kind) + "." + group + "/" + status.name;
}

std::string wait_resource_name(const TrainJobStatus& status) {
  return ascii_lower(status.kind) + "s/" + status.name;
}

}  // namespace trainjob
