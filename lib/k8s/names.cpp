#include "k8s/names.h"

#include <algorithm>

namespace trainjob {
namespace {

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool is_label_body(std::string_view name) {
  if (name.empty() || name.size() > kMaxLabelLength) return false;
  if (!is_lower_alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_lower_alnum(c) || c == '-'; });
}

/// `-<rj>-<last job index>-<last pod index>-xxxxx`: what a pod name adds to the TrainJob's.
std::string pod_name_tail(const JobNameShape& job) {
  return "-" + job.replicated_job + "-" + std::to_string(std::max<int64_t>(job.replicas, 1) - 1) +
         "-" + std::to_string(std::max<int64_t>(job.pods, 1) - 1) + "-xxxxx";
}

}  // namespace

bool is_dns1035_label(std::string_view name) {
  return is_label_body(name) && name.front() >= 'a' && name.front() <= 'z';
}

bool is_dns1123_label(std::string_view name) {
  return is_label_body(name) && is_lower_alnum(name.front());
}

std::optional<NameBudgetProblem> check_name_budget(std::string_view trainjob,
                                                   const std::vector<JobNameShape>& jobs) {
  std::string longest_tail;
  for (const JobNameShape& job : jobs) {
    std::string tail = pod_name_tail(job);
    if (tail.size() > longest_tail.size()) longest_tail = tail;
  }
  size_t length = trainjob.size() + longest_tail.size();
  if (length <= kMaxLabelLength) return std::nullopt;
  size_t room = kMaxLabelLength > longest_tail.size() ? kMaxLabelLength - longest_tail.size() : 0;
  return NameBudgetProblem{std::string(trainjob) + longest_tail, length - kMaxLabelLength, room};
}

std::string runtime_job_name_problem(std::string_view name) {
  if (name.size() <= kMaxRuntimeJobNameLength) return "";
  return "replicated job name \"" + std::string(name) + "\" has " + std::to_string(name.size()) +
         " characters; since Trainer 2.4 a runtime's replicated job names may have at most " +
         std::to_string(kMaxRuntimeJobNameLength) +
         ": shorten it (and the runtimePatches that name it)";
}

}  // namespace trainjob
