// Name rules that decide whether the Jobs and pods of a TrainJob can exist at all.
#ifndef TRAINJOB_K8S_NAMES_H_
#define TRAINJOB_K8S_NAMES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainjob {

inline constexpr size_t kMaxLabelLength = 63;
/// Longest replicated job name a runtime may have since Trainer 2.4 (kubeflow/trainer#4394).
inline constexpr size_t kMaxRuntimeJobNameLength = 20;

/// What is wrong with `name` as a replicated job name of a runtime for Trainer 2.4+ (longer
/// than kMaxRuntimeJobNameLength); empty when it fits.
std::string runtime_job_name_problem(std::string_view name);

/// RFC 1035 label: lower-case letter first, then letters, digits and '-', no '-' last, ≤ 63.
bool is_dns1035_label(std::string_view name);
/// RFC 1123 label: as RFC 1035 but may start with a digit.
bool is_dns1123_label(std::string_view name);

/// One replicated job's contribution to the names derived from the TrainJob's.
struct JobNameShape {
  std::string replicated_job;
  int64_t replicas = 1;  ///< Jobs created from it
  int64_t pods = 1;      ///< parallelism of each Job
};

/// The longest name derived from `trainjob` (pod name with its random suffix, for the
/// replicated job that makes it longest) when it breaks the 63-character limit, with
/// the longest TrainJob name that would fit. Empty when every derived name fits.
struct NameBudgetProblem {
  std::string longest_name;  ///< e.g. `my-job-node-0-9-xxxxx`
  size_t over_by = 0;
  size_t max_trainjob_name = 0;
};
std::optional<NameBudgetProblem> check_name_budget(std::string_view trainjob,
                                                   const std::vector<JobNameShape>& jobs);

}  // namespace trainjob

#endif  // TRAINJOB_K8S_NAMES_H_
