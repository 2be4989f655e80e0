// The torch policy: torchrun's PET_* variables and the master port.
#include "render/pod_edit.h"
#include "render/policy_plugins.h"

namespace trainjob {
namespace {

constexpr int kTorchMasterPort = 29500;

void inject_torch(const PolicyEnvInput& input, Json* node) {
  const std::string& name = input.trainjob;
  upsert_env_value(node, "PET_NNODES", std::to_string(input.pods));
  upsert_env_value(node, "PET_NPROC_PER_NODE", input.num_proc);
  upsert_env(node, completion_index_env("PET_NODE_RANK"));
  upsert_env_value(node, "PET_MASTER_ADDR", name + "-node-0-0." + name);
  upsert_env_value(node, "PET_MASTER_PORT", std::to_string(kTorchMasterPort));
  upsert_port(node, Json{{"containerPort", kTorchMasterPort}});
}

}  // namespace

const PolicyPlugin kTorchPlugin = {
    "torch",
    {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"},
    "is set by the torch policy and cannot be overridden in spec.trainer.env",
    inject_torch,
    nullptr,
    nullptr};

}  // namespace trainjob
