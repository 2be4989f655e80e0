// The torch policy's hooks beyond its plugin entry: torch.envInjection (Trainer v2.3,
// KEP-3416) gives the trainer's PET_* variables to init and sidecar containers too.
#ifndef TRAINJOB_RENDER_POLICY_TORCH_H_
#define TRAINJOB_RENDER_POLICY_TORCH_H_

#include <string>

#include "render/compile_state.h"

namespace trainjob {

/// Every envInjection target must name a replicated job of the runtime and, in it, a
/// container or init container: a located error on the runtime for each that does not.
bool check_torch_env_injection(CompileState* state);

/// Upserts PET_NNODES, PET_NPROC_PER_NODE (`num_proc`), PET_NODE_RANK, PET_MASTER_ADDR and
/// PET_MASTER_PORT, in that order, into each target container, target by target. Upstream
/// does so whether or not the TrainJob has spec.trainer, and always with the master
/// variables (a torchtune trainer gets its rendezvous on the command line instead).
void inject_torch_env_targets(CompileState* state, const std::string& num_proc);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_TORCH_H_
