// An OptimizationJob (trainer.kubeflow.org/v1alpha1, KEP-3562) read into what the trial
// generator needs, with the CRD's CEL rules checked as located errors.
#ifndef TRAINJOB_OPTIMIZE_OPTIMIZATION_JOB_H_
#define TRAINJOB_OPTIMIZE_OPTIMIZATION_JOB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"

namespace trainjob {

enum class SearchSpaceKind { kUniform, kLogUniform, kCategorical };

/// One entry of spec.parameters.
struct SearchParameter {
  std::string name;
  SearchSpaceKind kind = SearchSpaceKind::kCategorical;
  bool integer = false;  ///< `type: Int` of uniform and logUniform
  double min = 0;
  double max = 0;
  std::vector<std::string> choices;  ///< categorical
};

struct OptimizationJob {
  std::string name;
  bool grid = false;            ///< searchAlgorithm.grid, else random
  std::optional<int64_t> seed;  ///< searchAlgorithm.random.seed
  std::string seed_path;        ///< where a missing seed is reported
  int64_t num_trials = 1;       ///< defaults as the CRD's
  int64_t parallel_trials = 1;
  std::string metric;  ///< objectives[0].metric
  std::string direction = "Minimize";
  std::vector<SearchParameter> parameters;
};

/// Reads `document`, reporting every broken CEL rule of the CRD (and two parameters that
/// give one env name) at its field. Nothing when the job cannot be swept; schema problems
/// (types, bounds, patterns, repeated names and choices) are the schema pass's.
std::optional<OptimizationJob> read_optimization_job(const Document& document,
                                                     Diagnostics* diagnostics);

/// KUBEFLOW_TRAINER_OPT_<NAME>: the parameter name upper-cased, every character other than
/// an ASCII letter or digit written as '_'.
std::string optimization_env_name(const std::string& parameter);

}  // namespace trainjob

#endif  // TRAINJOB_OPTIMIZE_OPTIMIZATION_JOB_H_
