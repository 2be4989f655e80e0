// The runtime's mlPolicy: how many pods each job gets and what env the trainer sees.
#ifndef TRAINJOB_RENDER_ML_POLICY_H_
#define TRAINJOB_RENDER_ML_POLICY_H_

#include "render/compile_state.h"
#include "render/steps/trainer.h"

namespace trainjob {

/// The runtime's own rules for its mlPolicy: no numNodes together with
/// torch.elasticPolicy, and a policy we can compile (an error when `compiling` a TrainJob,
/// a warning when the runtime is checked by itself). Reports into the runtime's file.
bool check_ml_policy(const CompileState& state, bool compiling);

/// The policy's part before spec.trainer is applied: checks the policy and the trainer
/// against it, and sizes every job. Returns the resolved PET_NPROC_PER_NODE via *num_proc
/// (empty unless the torch policy applies). False on any error.
bool size_jobs(CompileState* state, const TrainerSettings& trainer, std::string* num_proc);
/// The policy's part after spec.trainer is applied: its plugin's env and port, and its
/// edits of other jobs and objects of its own.
void inject_policy_env(CompileState* state, const TrainerSettings& trainer,
                       const std::string& num_proc);
/// Resources of container `node` in job `node`, else in the trainer job, as upstream reads
/// the runtime's resources per node; null when there are none.
const Json& runtime_node_resources(CompileState* state);
/// A copy of the trainer job's `node` container as the runtime has it, taken before
/// spec.trainer is applied, for a policy with a build step; null otherwise.
Json policy_runtime_node(CompileState* state);
/// The policy's placement of spec.trainer's image, command and args beyond the trainer's
/// `node` container, right after spec.trainer is applied (see PolicyPlugin::place_trainer).
void place_trainer_fields(CompileState* state, const TrainerSettings& trainer,
                          const Json& runtime_node);
/// The policy's build step (other jobs, volumes, objects), after inject_policy_env. False on
/// error.
bool build_policy(CompileState* state, const TrainerSettings& trainer, const Json& runtime_node);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_ML_POLICY_H_
