// What each ML policy adds to the jobs, one entry per policy, as upstream's framework
// plugins do (torch, mpi, jax, xgboost, flux). The compiler looks a policy up here by the
// mlPolicy field the runtime sets; adding a policy adds its name and release to
// model/runtime_policy.cpp, and a plugin here in a file of its own.
#ifndef TRAINJOB_RENDER_POLICY_PLUGINS_H_
#define TRAINJOB_RENDER_POLICY_PLUGINS_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "model/field.h"
#include "render/compile_state.h"
#include "render/steps/trainer.h"

namespace trainjob {

/// What a policy's env may depend on.
struct PolicyEnvInput {
  std::string trainjob;  ///< the TrainJob's name
  int64_t pods = 1;      ///< pods of the trainer job
  std::string num_proc;  ///< torch: the resolved PET_NPROC_PER_NODE
  Json trainer_env;      ///< spec.trainer.env, as written (null when absent)
};

/// What a policy's build step works from, after spec.trainer and the env are applied.
struct PolicyBuildInput {
  const TrainerSettings& trainer;
  const Json& runtime_node;  ///< the trainer job's `node` container before spec.trainer
};

struct PolicyPlugin {
  const char* name;  ///< its field under mlPolicy
  /// Variables spec.trainer.env may not set, and why (after "<NAME> ").
  std::vector<const char*> reserved_env;
  const char* reserved_reason;
  /// Adds the policy's env and ports to the trainer job's `node` container when the
  /// TrainJob has spec.trainer; null: nothing.
  void (*inject)(const PolicyEnvInput& input, Json* node);
  /// Optional (null: the trainer job gets spec.trainer.numNodes). The policy's own checks
  /// of the TrainJob (upstream's webhook) and its sizing of the jobs, after each job got
  /// its template's count. False on any error.
  bool (*size)(CompileState* state, const TrainerSettings& trainer);
  /// Optional. Work beyond the trainer's container, after spec.trainer and the env are
  /// applied: other jobs, volumes, objects of its own (CompileState::extra_objects), the
  /// Secrets it generates keys for when CompileState::generate_secrets. False on any error.
  bool (*build)(CompileState* state, const PolicyBuildInput& input);
  /// Optional. Where spec.trainer's image, command and args go beyond the trainer's `node`
  /// container (MPI from v2.4: the nodes' image too), right after spec.trainer is applied, so
  /// that the container checks see what the Jobs will run.
  void (*place_trainer)(CompileState* state, const PolicyBuildInput& input);
};

/// The plugin of the policy `ml_policy` sets, or null (no policy, or one not compiled).
const PolicyPlugin* find_policy_plugin(const Field& ml_policy);
/// Every plugin: one per entry of model's ml_policy_names(), in its order.
const std::vector<const PolicyPlugin*>& policy_plugins();

/// The plugins, each defined in the file of its name beside this one (torch.cpp, ...).
extern const PolicyPlugin kTorchPlugin;
extern const PolicyPlugin kMpiPlugin;
extern const PolicyPlugin kJaxPlugin;
extern const PolicyPlugin kXgboostPlugin;
extern const PolicyPlugin kFluxPlugin;

/// The env var a pod reads its index from: the Job's completion-index annotation.
Json completion_index_env(const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_PLUGINS_H_
