// Training Operator v1 jobs (kubeflow.org/v1 PyTorchJob, XGBoostJob, JAXJob, TFJob, PaddleJob,
// MPIJob; kubeflow.org/v2beta1 MPIJob) into TrainJobs on the matching runtime.
#ifndef TRAINJOB_CONVERT_CONVERT_LEGACY_H_
#define TRAINJOB_CONVERT_CONVERT_LEGACY_H_

#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/dialect.h"

namespace trainjob {

struct LegacyConvertOptions {
  Dialect release = kDefaultDialect;  ///< the Trainer release the TrainJob is written for
  std::string runtime_name;           ///< empty: the kind's stock runtime
  bool with_runtime = false;          ///< emit a TrainingRuntime for what overrides cannot carry
};

/// True for a document of a kind in the legacy kind table (legacy/legacy_kinds.h): a
/// Training Operator v1 kind or the mpi-operator's v2beta1 MPIJob.
bool is_convertible_legacy_job(const Document& document);

/// The TrainJob (and, with `with_runtime`, the TrainingRuntime before it) that runs
/// `job` as the operator would. Losses that change nothing are warnings; changes of
/// behaviour are located errors.
std::vector<Json> convert_legacy_job(const Document& job, const LegacyConvertOptions& options,
                                     Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_CONVERT_LEGACY_H_
