// Training Operator v1 jobs (kubeflow.org/v1 PyTorchJob, XGBoostJob, JAXJob, TFJob, PaddleJob,
// MPIJob; kubeflow.org/v2beta1 MPIJob) into TrainJobs on the matching runtime.
#ifndef TRAINJOB_CONVERT_CONVERT_V1_H_
#define TRAINJOB_CONVERT_CONVERT_V1_H_

#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/dialect.h"

namespace trainjob {

struct V1Options {
  Dialect target = Dialect::kV2_3;
  std::string runtime_name;   ///< empty: the kind's stock runtime
  bool with_runtime = false;  ///< emit a TrainingRuntime for what overrides cannot carry
};

/// True for a document of a Training Operator v1 or mpi-operator v2beta1 kind.
bool is_v1_job(const Document& document);

/// The TrainJob (and, with `with_runtime`, the TrainingRuntime before it) that runs
/// `job` as the operator would. Losses that change nothing are warnings; changes of
/// behaviour are located errors.
std::vector<Json> convert_v1_job(const Document& job, const V1Options& options,
                                 Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_CONVERT_V1_H_
