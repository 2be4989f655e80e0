// The two MPIJob kinds compile through their own functions: their objects are not one
// Service and one Job per pod of the other legacy kinds (no per-pod Services, the launcher
// named `J-launcher`, a ConfigMap of hosts and scripts, keys or RBAC).
#ifndef TRAINJOB_LEGACY_KIND_MPI_H_
#define TRAINJOB_LEGACY_KIND_MPI_H_

#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "legacy/legacy_kinds.h"
#include "legacy/mpi_legacy_job.h"
#include "load/document.h"
#include "load/json.h"
#include "render/compile.h"

namespace trainjob {

/// Everything compile_legacy_job does for these kinds (LegacyKind::compile): reading,
/// checks, objects in output order with sorted keys; nothing after errors.
std::vector<Json> compile_mpi_v1(const Document& document, const CompileOptions& options,
                                 Diagnostics* diagnostics);
std::vector<Json> compile_mpi_v2beta1(const Document& document, const CompileOptions& options,
                                      Diagnostics* diagnostics);

/// An MPIJob as `convert` reads it: the operator's reading and defaults (its webhook rules
/// checked), and the settings that decide where the ranks run and how the launcher reaches
/// the workers.
struct MpiJobShape {
  MpiJobShape() = default;
  MpiJobShape(const MpiJobShape&) = delete;  // job.launcher points into job.base
  MpiJobShape& operator=(const MpiJobShape&) = delete;

  MpiLegacyJob job;
  bool launcher_in_hostfile = false;  ///< v2beta1 runLauncherAsWorker; v1 a GPU launcher
  bool kubectl_exec = false;          ///< v1: the workers are reached by kubectl exec
  bool wait_for_workers = false;      ///< v2beta1 launcherCreationPolicy WaitForWorkersReady
  std::string ssh_mount_path;         ///< where the key is mounted (v1: none, empty)
  std::string implementation = "OpenMPI";
};

/// False when the job has errors (reported).
bool read_mpi_v1_shape(const Document& document, MpiJobShape* shape, Diagnostics* diagnostics);
bool read_mpi_v2beta1_shape(const Document& document, MpiJobShape* shape, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_KIND_MPI_H_
