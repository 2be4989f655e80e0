// MPIJobs (kubeflow.org/v1 and mpi-operator's kubeflow.org/v2beta1) into TrainJobs on an
// MPI runtime. The stock MPI runtimes fix what an MPIJob chooses freely (the workers' image
// and sshd command, where the key is mounted, whether the launcher is a host), so most
// MPIJobs need a TrainingRuntime of their own: `--with-runtime` writes one that holds both
// pod templates as they are.
#ifndef TRAINJOB_CONVERT_CONVERT_MPI_H_
#define TRAINJOB_CONVERT_CONVERT_MPI_H_

#include <string>
#include <vector>

#include "convert/convert_legacy.h"
#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/field.h"

namespace trainjob {

/// The TrainJob (after the TrainingRuntime, with --with-runtime) for the MPIJob `job`.
/// `stock` is the runtime named `runtime_name` the TrainJob runs on without a runtime of
/// its own; null when the release has none.
std::vector<Json> convert_mpi_job(const Document& job, const LegacyConvertOptions& options,
                                  const Document* stock, const std::string& runtime_name,
                                  Diagnostics* diagnostics);

/// The TrainJob of a converted legacy job: `runtime_ref` and `trainer`, spec.runPolicy mapped
/// where a TrainJob has a field for it (warnings for the rest), `overrides` in the form of
/// the release's dialect. Shared by every legacy kind; defined in convert_legacy.cpp.
Json legacy_trainjob(const Document& job, const FieldReader& reader,
                     const LegacyConvertOptions& options, Json runtime_ref, Json trainer,
                     const Json& overrides);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_CONVERT_MPI_H_
