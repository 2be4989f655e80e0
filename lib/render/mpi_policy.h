// The MPI policy (OpenMPI, Trainer v2.0+): what policy_mpi.cpp (checks, counts, pod
// edits) and mpi_objects.cpp (hostfile ConfigMap, SSH Secret, node wrapper) share.
#ifndef TRAINJOB_RENDER_MPI_POLICY_H_
#define TRAINJOB_RENDER_MPI_POLICY_H_

#include <string>

#include "render/compile_state.h"
#include "render/trainer.h"

namespace trainjob {

/// Upstream finds the MPI jobs by these names, not by label.
inline constexpr const char* kMpiLauncherJob = "launcher";
inline constexpr const char* kMpiNodeJob = "node";
inline constexpr const char* kMpiOpenMpi = "OpenMPI";
/// The volumes it adds: the SSH key Secret (both jobs) and the hostfile (the launcher).
inline constexpr const char* kMpiSshVolume = "mpi-ssh-auth";
inline constexpr const char* kMpiHostfileVolume = "mpi-hostfile";

/// The runtime's mlPolicy.mpi with the CRD's defaults applied, and the slots resolved.
struct MpiSettings {
  int64_t slots = 1;  ///< processes per pod: OMPI_MCA_orte_set_default_slots, hostfile slots
  std::string implementation = kMpiOpenMpi;
  std::string ssh_mount_path = "/root/.ssh";
  bool launcher_as_node = false;
};

/// The runtime's mlPolicy.mpi fields. Only OpenMPI compiles: another implementation is an
/// error when `compiling` a TrainJob and a warning when the runtime is checked by itself.
bool check_mpi_runtime(const FieldReader& rt, const Field& mpi, bool compiling);
/// Reads mlPolicy.mpi (already checked) and resolves the slots from the TrainJob.
MpiSettings read_mpi_settings(CompileState* state, const TrainerSettings& trainer);

/// The pods' DNS domain: network.subdomain, else the TrainJob's name.
std::string mpi_subdomain(const CompileState& state);
std::string mpi_hostfile_name(const std::string& trainjob);
std::string mpi_ssh_secret_name(const std::string& trainjob);

/// The hostfile ConfigMap: one `<pod>.<subdomain> slots=S` line per MPI pod.
Json mpi_hostfile_config_map(const CompileState& state, const MpiSettings& settings);
/// The SSH Secret when options ask for generated Secrets, else a warning that it must exist.
void add_mpi_ssh_secret(CompileState* state);
/// Wraps the command of container `node` of job `node` so its pods end when the launcher's
/// pod is gone (see docs/semantics.md); warns when there is no command to wrap.
void wrap_mpi_node_command(CompileState* state);
/// The /bin/sh script of that wrapper, waiting on `launcher_host`.
std::string mpi_node_wrapper_script(const std::string& launcher_host);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_MPI_POLICY_H_
