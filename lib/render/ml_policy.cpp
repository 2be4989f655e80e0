#include "render/ml_policy.h"

#include <algorithm>

#include "model/jobset_labels.h"
#include "model/num_proc.h"
#include "model/runtime_policy.h"
#include "render/pod_edit.h"
#include "render/policy/mpi.h"
#include "render/policy/plugins.h"
#include "render/policy/torch.h"

namespace trainjob {

namespace {

/// A runtime may name one of the policies.
bool check_one_policy(const FieldReader& rt, const Field& policy) {
  std::string names;
  for (const MlPolicyName& entry : ml_policy_names()) {
    if (policy[entry.name]) names += std::string(names.empty() ? "" : " and ") + entry.name;
  }
  if (names.find(" and ") == std::string::npos) return true;
  rt.error(policy.path(), "only one policy can be configured, found " + names);
  return false;
}

/// The runtime's torch.numProcPerNode (Trainer v2.0-v2.1): an integer > 0 or auto/cpu/gpu.
bool check_runtime_num_proc(const FieldReader& rt, const Field& num_proc) {
  if (!num_proc) return true;
  const Json& value = *num_proc.value;
  bool ok = (value.is_number_integer() && value.get<int64_t>() > 0) ||
            (value.is_string() && (value == "auto" || value == "cpu" || value == "gpu"));
  if (!ok) rt.mismatch(num_proc, "an integer ≥ 1 or one of auto, cpu, gpu");
  return ok;
}

/// flux.numProcPerNode, which the CRD checks with CEL (`self >= 1`).
bool check_flux_num_proc(const FieldReader& rt, const Field& num_proc) {
  if (!num_proc) return true;
  std::optional<int64_t> value = rt.integer(num_proc);
  if (!value) return false;
  if (*value >= 1) return true;
  rt.error(num_proc.path(),
           "NumProcPerNode in fluxPolicy must be >= 1, found " + std::to_string(*value));
  return false;
}

}  // namespace

bool check_ml_policy(const CompileState& state, bool compiling) {
  const FieldReader& rt = state.runtime_reader;
  Field policy = state.ml_policy;
  if (!policy) return true;
  if (!rt.is_object(policy)) return false;
  bool ok = check_one_policy(rt, policy);
  if (policy["numNodes"] && policy["torch"]["elasticPolicy"]) {
    rt.error(policy["numNodes"].path(),
             "numNodes must not be set together with torch.elasticPolicy");
    ok = false;
  }
  ok = check_runtime_num_proc(rt, policy["torch"]["numProcPerNode"]) && ok;
  ok = check_mpi_runtime(rt, policy["mpi"], compiling) && ok;
  ok = check_flux_num_proc(rt, policy["flux"]["numProcPerNode"]) && ok;
  return ok && (!policy["numNodes"] || rt.integer(policy["numNodes"]));
}

namespace {

bool check_reserved_env(const CompileState& state, const PolicyPlugin& plugin) {
  Field env = state.trainjob.trainer["env"];
  if (!env || !env.value->is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < env.value->size(); ++i) {
    std::string name = string_member((*env.value)[i], "name");
    for (const char* reserved : plugin.reserved_env) {
      if (name == reserved) {
        state.trainjob_reader.error(env.at(i)["name"].path(),
                                    std::string(reserved) + " " + plugin.reserved_reason);
        ok = false;
      }
    }
  }
  return ok;
}

std::string resolve_torch_num_proc(CompileState* state, const TrainerSettings& trainer) {
  Field runtime_value = state->ml_policy["torch"]["numProcPerNode"];
  // Trainer v2.2 dropped the runtime's setting: its API server refuses a runtime that still
  // has it (kubectl validates strictly), whatever the TrainJob sets.
  bool runtime_setting = runtime_value && state->dialect.string_num_proc;
  if (runtime_value && !runtime_setting) {
    state->runtime_reader.error(
        runtime_value.path(),
        std::string("not a field of Trainer ") + state->dialect.version +
            " runtimes (v2.2 removed it; its API server refuses this runtime): remove it "
            "and set spec.trainer.numProcPerNode in the TrainJob, or use "
            "--trainer-version 2.1 for a v2.0-v2.1 cluster");
  }
  Json num_proc = trainer.num_proc_per_node;
  if (num_proc.is_null()) num_proc = runtime_setting ? *runtime_value.value : Json("auto");
  const Json& resources =
      trainer.resources.is_object() ? trainer.resources : runtime_node_resources(state);
  return resolve_num_proc_per_node(num_proc, resources);
}

void size_from_template(CompileState* state) {
  int64_t policy_nodes = 1;
  if (state->ml_policy && state->ml_policy["numNodes"]) {
    policy_nodes = state->ml_policy["numNodes"].value->get<int64_t>();
  }
  for (ReplicatedJob& job : state->replicated_jobs) {
    const Json& spec = job.job_template["spec"];
    auto parallelism = spec.find("parallelism");
    job.count = parallelism != spec.end() && parallelism->is_number_integer()
                    ? parallelism->get<int64_t>()
                    : 1;
    if (job.ancestor == kTrainerStep && state->ml_policy) job.count = policy_nodes;
    job.count = std::max<int64_t>(job.count, 1);
  }
}

}  // namespace

const Json& runtime_node_resources(CompileState* state) {
  static const Json kNone;
  ReplicatedJob* job = state->find_job(kNodeName);
  if (job == nullptr) job = state->trainer_job();
  if (job == nullptr) return kNone;
  const Json* node = find_container(job->pod_spec(), kNodeName);
  if (node == nullptr || !node->contains("resources")) return kNone;
  return (*node)["resources"];
}

bool size_jobs(CompileState* state, const TrainerSettings& trainer, std::string* num_proc) {
  if (!check_ml_policy(*state, /*compiling=*/true)) return false;
  const PolicyPlugin* plugin = find_policy_plugin(state->ml_policy);
  if (plugin != nullptr && !check_reserved_env(*state, *plugin)) return false;
  bool torch = plugin == &kTorchPlugin;
  size_from_template(state);
  ReplicatedJob* trainer_job = state->trainer_job();
  if (trainer.present && trainer_job == nullptr) {
    state->trainjob_reader.error(state->trainjob.trainer.path(),
                                 "the runtime has no replicated job labelled " +
                                     std::string(kAncestorLabel) +
                                     ": trainer, so spec.trainer has "
                                     "nothing to apply to");
    return false;
  }
  if (plugin != nullptr && plugin->size != nullptr) return plugin->size(state, trainer);
  if (trainer.num_nodes && trainer_job != nullptr) trainer_job->count = *trainer.num_nodes;
  if (torch) *num_proc = resolve_torch_num_proc(state, trainer);
  return !torch || check_torch_env_injection(state);
}

void inject_policy_env(CompileState* state, const TrainerSettings& trainer,
                       const std::string& num_proc) {
  // Upstream's plugins add their env only when the TrainJob has a trainer section.
  const PolicyPlugin* plugin = find_policy_plugin(state->ml_policy);
  ReplicatedJob* job = state->trainer_job();
  Json* node = job != nullptr ? find_container(&job->pod_spec(), kNodeName) : nullptr;
  if (plugin != nullptr && plugin->inject != nullptr && trainer.present && node != nullptr) {
    Field env = state->trainjob.trainer["env"];
    plugin->inject({state->trainjob.name, job->count, num_proc, env ? *env.value : Json()}, node);
  }
  // After the trainer, as upstream's loop runs, and with or without spec.trainer.
  if (plugin == &kTorchPlugin) inject_torch_env_targets(state, num_proc);
}

Json policy_runtime_node(CompileState* state) {
  const PolicyPlugin* plugin = find_policy_plugin(state->ml_policy);
  ReplicatedJob* job = state->trainer_job();
  if (plugin == nullptr || plugin->build == nullptr || job == nullptr) return Json();
  const Json* node = find_container(job->pod_spec(), kNodeName);
  return node != nullptr ? *node : Json();
}

void place_trainer_fields(CompileState* state, const TrainerSettings& trainer,
                          const Json& runtime_node) {
  const PolicyPlugin* plugin = find_policy_plugin(state->ml_policy);
  if (plugin != nullptr && plugin->place_trainer != nullptr)
    plugin->place_trainer(state, {trainer, runtime_node});
}

bool build_policy(CompileState* state, const TrainerSettings& trainer, const Json& runtime_node) {
  const PolicyPlugin* plugin = find_policy_plugin(state->ml_policy);
  if (plugin == nullptr || plugin->build == nullptr) return true;
  return plugin->build(state, {trainer, runtime_node});
}

}  // namespace trainjob
