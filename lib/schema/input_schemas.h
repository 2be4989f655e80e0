// The embedded schemas of the documents we read: TrainJob, TrainingRuntime and
// ClusterTrainingRuntime, one set per Trainer API dialect.
#ifndef TRAINJOB_SCHEMA_INPUT_SCHEMAS_H_
#define TRAINJOB_SCHEMA_INPUT_SCHEMAS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/dialect.h"
#include "schema/structural_schema.h"

namespace trainjob {

class InputSchemas {
 public:
  InputSchemas();
  /// Problems of a TrainJob under `dialect`.
  std::vector<SchemaProblem> check_trainjob(const Json& trainjob, Dialect dialect);
  /// Problems of a runtime: none when any dialect's schema accepts it (a runtime serves
  /// TrainJobs of any dialect that accepts it), else those of `preferred`.
  std::vector<SchemaProblem> check_runtime(const Json& runtime, Dialect preferred);
  /// Problems of a Training Operator v1 job (kubeflow.org/v1 PyTorchJob, TFJob, ...) or of
  /// an mpi-operator kubeflow.org/v2beta1 MPIJob; none for a kind without an embedded
  /// schema (the compiler says what it makes of those).
  std::vector<SchemaProblem> check_legacy(const Json& job, const std::string& api_version,
                                          const std::string& kind);
  /// Problems of an OptimizationJob outside its trainJobTemplate.spec, which is checked as
  /// the spec of a TrainJob (by the optimize stage, at the OptimizationJob's lines).
  std::vector<SchemaProblem> check_optimization_job(const Json& job);

 private:
  /// The schema `<dialect dir>/<file>`, parsed from the embedded copy on first use.
  const Schema& schema(Dialect dialect, const char* file);

  /// The schema at `path` of the embedded files, parsed and prepared on first use; null
  /// when there is none.
  const Schema* embedded(const std::string& path);

  /// Adds the embedded schema at `path`, when there is one, to the set as `name` (what a
  /// `$ref` names), unless the set has one by that name already.
  void add_named(const char* name, const std::string& path);

  SchemaSet set_;
  std::map<std::string, Schema> parsed_;
};

/// Adds `problems` to `diagnostics` at the positions of `document`.
void report_schema_problems(const Document& document, const std::vector<SchemaProblem>& problems,
                            Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_INPUT_SCHEMAS_H_
