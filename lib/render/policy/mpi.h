// The MPI policy (OpenMPI, Trainer v2.0+): its settings, checks, counts and pod edits.
// The objects it adds are in mpi_objects.h, the node pods' wrapper in mpi_node_wrapper.h.
#ifndef TRAINJOB_RENDER_POLICY_MPI_H_
#define TRAINJOB_RENDER_POLICY_MPI_H_

#include <string>

#include "model/vocabulary.h"
#include "render/compile_state.h"
#include "render/steps/trainer.h"

namespace trainjob {

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

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_MPI_H_
