// The JAX policy (Trainer v2.2+): what jax.distributed.initialize reads. One process per
// pod; the coordinator is pod 0 of the node job.
#include "model/jobset_labels.h"
#include "render/pod_edit.h"
#include "render/policy/plugins.h"

namespace trainjob {
namespace {

constexpr int kJaxCoordinatorPort = 29500;

void inject_jax(const PolicyEnvInput& input, Json* node) {
  const std::string& name = input.trainjob;
  Json env = Json::array({
      {{"name", "JAX_NUM_PROCESSES"}, {"value", std::to_string(input.pods)}},
      completion_index_env("JAX_PROCESS_ID"),
      {{"name", "JAX_COORDINATOR_ADDRESS"},
       {"value", first_node_host(name) + ":" + std::to_string(kJaxCoordinatorPort)}},
  });
  // Upstream applies spec.trainer.env after the policy's env, so a user's value wins.
  place_policy_env(node, env, input.trainer_env);
  upsert_port(node, Json{{"containerPort", kJaxCoordinatorPort}});
}

}  // namespace

// Upstream refuses no JAX_* variable in spec.trainer.env.
const PolicyPlugin kJaxPlugin = {"jax", {}, "", inject_jax, nullptr, nullptr, nullptr};

}  // namespace trainjob
