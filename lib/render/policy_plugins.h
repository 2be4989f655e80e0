// What each ML policy adds to the trainer's `node` container, one entry per policy, as
// upstream's framework plugins do (torch, jax, xgboost). The compiler looks a policy up
// here by the mlPolicy field the runtime sets; adding a policy adds an entry and its file.
#ifndef TRAINJOB_RENDER_POLICY_PLUGINS_H_
#define TRAINJOB_RENDER_POLICY_PLUGINS_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "model/field.h"

namespace trainjob {

/// What a policy's env may depend on.
struct PolicyEnvInput {
  std::string trainjob;  ///< the TrainJob's name
  int64_t pods = 1;      ///< pods of the trainer job
  std::string num_proc;  ///< torch: the resolved PET_NPROC_PER_NODE
};

struct PolicyPlugin {
  const char* name;  ///< its field under mlPolicy
  /// Variables spec.trainer.env may not set, and why (after "<NAME> ").
  std::vector<const char*> reserved_env;
  const char* reserved_reason;
  /// Adds the policy's env and ports to the trainer job's `node` container.
  void (*inject)(const PolicyEnvInput& input, Json* node);
};

/// The plugin of the policy `ml_policy` sets, or null (no policy, or one not compiled).
const PolicyPlugin* find_policy_plugin(const Field& ml_policy);

/// Names of the policies that have a plugin, for messages: "torch, jax, xgboost".
std::string compiled_policy_names();

/// The plugins, defined in policy_<name>.cpp.
extern const PolicyPlugin kTorchPlugin;
extern const PolicyPlugin kJaxPlugin;
extern const PolicyPlugin kXgboostPlugin;

/// The env var a pod reads its index from: the Job's completion-index annotation.
Json completion_index_env(const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_PLUGINS_H_
