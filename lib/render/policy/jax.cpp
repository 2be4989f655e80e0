// The JAX policy (Trainer v2.2+): what jax.distributed.initialize reads. One process per
// pod; the coordinator is pod 0 of the node job.
#include "render/pod_edit.h"
#include "render/policy/plugins.h"

namespace trainjob {
namespace {

constexpr int kJaxCoordinatorPort = 29500;

/// Upstream applies spec.trainer.env after the policy's env, so a user's value wins.
void add_unless_set(Json* node, const Json& env_var) {
  const Json& env = node->contains("env") ? (*node)["env"] : Json::array();
  for (const Json& existing : env) {
    if (existing.value("name", "") == env_var["name"]) return;
  }
  upsert_env(node, env_var);
}

void inject_jax(const PolicyEnvInput& input, Json* node) {
  const std::string& name = input.trainjob;
  add_unless_set(node, Json{{"name", "JAX_NUM_PROCESSES"}, {"value", std::to_string(input.pods)}});
  add_unless_set(node, completion_index_env("JAX_PROCESS_ID"));
  add_unless_set(node, Json{{"name", "JAX_COORDINATOR_ADDRESS"},
                            {"value", name + "-node-0-0." + name + ":" +
                                          std::to_string(kJaxCoordinatorPort)}});
  upsert_port(node, Json{{"containerPort", kJaxCoordinatorPort}});
}

}  // namespace

// Upstream refuses no JAX_* variable in spec.trainer.env.
const PolicyPlugin kJaxPlugin = {"jax", {}, "", inject_jax, nullptr, nullptr, nullptr};

}  // namespace trainjob
