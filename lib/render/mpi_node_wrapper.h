// The wrapper around the MPI node pods' command that ends them once the launcher is gone.
#ifndef TRAINJOB_RENDER_MPI_NODE_WRAPPER_H_
#define TRAINJOB_RENDER_MPI_NODE_WRAPPER_H_

#include <string>

#include "render/compile_state.h"

namespace trainjob {

/// Wraps the command of container `node` of job `node` so its pods end when the launcher's
/// pod is gone (see docs/semantics.md); warns when there is no command to wrap.
void wrap_mpi_node_command(CompileState* state);
/// The /bin/sh script of that wrapper, waiting on `launcher_host`.
std::string mpi_node_wrapper_script(const std::string& launcher_host);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_MPI_NODE_WRAPPER_H_
