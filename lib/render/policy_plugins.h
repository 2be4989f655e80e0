// What each ML policy adds to the trainer's `node` container, one entry per policy, as
// upstream's framework plugins do (torch, jax, xgboost). The compiler looks a policy up
// here by the mlPolicy field the runtime sets; adding a policy adds an entry and its file.
#ifndef TRAINJOB_RENDER_POLICY_PLUGINS_H_
#define TRAINJOB_RENDER_POLICY_PLUGINS_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "model/field.h"
#include "render/compile_state.h"
#include "render/trainer.h"

namespace trainjob {

/// What a policy's env may depend on.
struct PolicyEnvInput {
  std::string trainjob;  ///< the TrainJob's name
  int64_t pods = 1;      ///< pods of the trainer job
  std::string num_proc;  ///< torch: the resolved PET_NPROC_PER_NODE
};

/// What a policy that reshapes pods works from, after spec.trainer and the env are applied.
struct PolicyExtensionInput {
  const TrainerSettings& trainer;
  const Json& runtime_node;  ///< the trainer job's `node` container before spec.trainer
  bool generate_secrets;     ///< CompileOptions::generate_secrets
};

/// The optional part of a policy that goes beyond env and ports (Flux): its own checks, run
/// by validate and render, and its pod-template edits and extra objects, run by render.
struct PolicyExtension {
  /// Before spec.trainer is applied; false after reporting an error.
  bool (*check)(const CompileState& state, const TrainerSettings& trainer);
  /// False after reporting an error.
  bool (*build)(CompileState* state, const PolicyExtensionInput& input);
};

struct PolicyPlugin {
  const char* name;  ///< its field under mlPolicy
  /// Variables spec.trainer.env may not set, and why (after "<NAME> ").
  std::vector<const char*> reserved_env;
  const char* reserved_reason;
  /// Adds the policy's env and ports to the trainer job's `node` container.
  void (*inject)(const PolicyEnvInput& input, Json* node);
  const PolicyExtension* extension = nullptr;
};

/// The plugin of the policy `ml_policy` sets, or null (no policy, or one not compiled).
const PolicyPlugin* find_policy_plugin(const Field& ml_policy);

/// Names of the policies that have a plugin, for messages: "torch, jax, xgboost".
std::string compiled_policy_names();

/// The plugins, defined in policy_<name>.cpp.
extern const PolicyPlugin kTorchPlugin;
extern const PolicyPlugin kJaxPlugin;
extern const PolicyPlugin kXgboostPlugin;
extern const PolicyPlugin kFluxPlugin;

/// The env var a pod reads its index from: the Job's completion-index annotation.
Json completion_index_env(const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_PLUGINS_H_
