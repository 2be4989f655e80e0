// The two MPIJob kinds compile through their own functions: their objects are not one
// Service and one Job per pod of the other legacy kinds (no per-pod Services, the launcher
// named `J-launcher`, a ConfigMap of hosts and scripts, keys or RBAC).
#ifndef TRAINJOB_LEGACY_KIND_MPI_H_
#define TRAINJOB_LEGACY_KIND_MPI_H_

#include <vector>

#include "diag/diagnostic.h"
#include "legacy/legacy_kinds.h"
#include "load/document.h"
#include "load/json.h"
#include "render/compile.h"

namespace trainjob {

/// Everything compile_legacy_job does for these kinds (LegacyKind::compile): reading,
/// checks, objects in output order with sorted keys; nothing after errors or with
/// options.check_only.
std::vector<Json> compile_mpi_v1(const Document& document, const CompileOptions& options,
                                 Diagnostics* diagnostics);
std::vector<Json> compile_mpi_v2beta1(const Document& document, const CompileOptions& options,
                                      Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_KIND_MPI_H_
