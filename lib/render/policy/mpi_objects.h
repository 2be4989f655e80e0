// What the MPI policy adds beside the Jobs: the hostfile ConfigMap and the SSH key Secret.
#ifndef TRAINJOB_RENDER_POLICY_MPI_OBJECTS_H_
#define TRAINJOB_RENDER_POLICY_MPI_OBJECTS_H_

#include <string>

#include "load/json.h"
#include "render/compile_state.h"
#include "render/policy/mpi.h"

namespace trainjob {

/// The pods' DNS domain: network.subdomain, else the TrainJob's name.
std::string mpi_subdomain(const CompileState& state);
std::string mpi_hostfile_name(const std::string& trainjob);
std::string mpi_ssh_secret_name(const std::string& trainjob);

/// The hostfile ConfigMap: one `<pod>.<subdomain> slots=S` line per MPI pod.
Json mpi_hostfile_config_map(const CompileState& state, const MpiSettings& settings);
/// The SSH Secret when options ask for generated Secrets, else a warning that it must exist.
void add_mpi_ssh_secret(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_MPI_OBJECTS_H_
