// The torch policy: torchrun's PET_* variables and the master port.
#include "render/policy/torch.h"

#include "model/jobset_labels.h"
#include "render/pod_edit.h"
#include "render/policy/plugins.h"

namespace trainjob {
namespace {

constexpr int kTorchMasterPort = 29500;

/// PET_NNODES, PET_NPROC_PER_NODE and PET_NODE_RANK.
void upsert_pet_env(Json* container, int64_t pods, const std::string& num_proc) {
  upsert_env_value(container, "PET_NNODES", std::to_string(pods));
  upsert_env_value(container, "PET_NPROC_PER_NODE", num_proc);
  upsert_env(container, completion_index_env("PET_NODE_RANK"));
}

/// PET_MASTER_ADDR and PET_MASTER_PORT: the first pod of the first `node` Job.
void upsert_master_env(Json* container, const std::string& trainjob) {
  upsert_env_value(container, "PET_MASTER_ADDR", first_node_host(trainjob));
  upsert_env_value(container, "PET_MASTER_PORT", std::to_string(kTorchMasterPort));
}

void inject_torch(const PolicyEnvInput& input, Json* node) {
  upsert_pet_env(node, input.pods, input.num_proc);
  upsert_master_env(node, input.trainjob);
  upsert_port(node, Json{{"containerPort", kTorchMasterPort}});
}

/// The container `name` of the pod spec, looked up in containers before initContainers,
/// as upstream's FindContainerByPodSetName does; null when neither has it.
Json* find_target_container(Json* pod_spec, const std::string& name) {
  for (const char* list : {"containers", "initContainers"}) {
    auto it = pod_spec->find(list);
    if (it == pod_spec->end() || !it->is_array()) continue;
    for (Json& container : *it) {
      if (container.is_object() && container.value("name", "") == name) return &container;
    }
  }
  return nullptr;
}

Field env_injection_targets(const CompileState& state) {
  return state.ml_policy["torch"]["envInjection"]["targets"];
}

}  // namespace

const PolicyPlugin kTorchPlugin = {
    "torch",
    {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"},
    "is set by the torch policy and cannot be overridden in spec.trainer.env",
    inject_torch,
    nullptr,
    nullptr,
    nullptr};

bool check_torch_env_injection(CompileState* state) {
  Field targets = env_injection_targets(*state);
  if (!targets || !targets.value->is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < targets.value->size(); ++i) {
    Field target = targets.at(i);
    Field names = target["containerNames"];
    std::string job_name = string_member(*target.value, "jobName");
    if (!names || !names.value->is_array()) continue;
    ReplicatedJob* job = state->find_job(job_name);
    for (size_t j = 0; j < names.value->size(); ++j) {
      const Json& name = (*names.value)[j];
      if (!name.is_string()) continue;
      if (job != nullptr && find_target_container(&job->pod_spec(), name) != nullptr) continue;
      std::string where = job == nullptr ? "the runtime has no replicated job \"" + job_name + "\""
                                         : "replicated job \"" + job_name +
                                               "\" has no container or init container \"" +
                                               name.get<std::string>() + "\"";
      state->runtime_reader.error(names.at(j).path(), "envInjection target not found: " + where);
      ok = false;
    }
  }
  return ok;
}

void inject_torch_env_targets(CompileState* state, const std::string& num_proc) {
  Field targets = env_injection_targets(*state);
  if (!targets || !targets.value->is_array()) return;
  const ReplicatedJob* trainer = state->trainer_job();
  int64_t pods = trainer != nullptr ? trainer->count : 1;
  for (const Json& target : *targets.value) {
    ReplicatedJob* job = state->find_job(string_member(target, "jobName"));
    auto names = target.find("containerNames");
    if (job == nullptr || names == target.end() || !names->is_array()) continue;
    for (const Json& name : *names) {
      Json* container = name.is_string() ? find_target_container(&job->pod_spec(), name) : nullptr;
      if (container == nullptr) continue;  // check_torch_env_injection reported it
      upsert_pet_env(container, pods, num_proc);
      upsert_master_env(container, state->trainjob.name);
    }
  }
}

}  // namespace trainjob
