// The Flux policy (Trainer v2.2+): the `node` pods become a Flux cluster. An init container
// copies Flux in from a "view" image, the trainer's command is wrapped by an entrypoint that
// starts the brokers and `flux run`s it on pod 0, and two objects are added: the ConfigMap of
// scripts and the Secret with the brokers' CURVE certificate.
#include <algorithm>

#include "crypto/base64.h"
#include "model/jobset_labels.h"
#include "model/num_proc.h"
#include "render/extra_objects.h"
#include "render/pod_edit.h"
#include "render/policy/flux_curve.h"
#include "render/policy/flux_scripts.h"
#include "render/policy/flux_settings.h"
#include "render/policy/plugins.h"

namespace trainjob {
namespace {

constexpr const char* kConfigPath = "/etc/flux-config";
constexpr const char* kInstallVolume = "flux-install";
constexpr const char* kInstallPath = "/mnt/flux";
constexpr const char* kSpackVolume = "spack-install";
constexpr const char* kSpackPath = "/opt/software";
constexpr const char* kMemoryVolume = "shared-memory";
constexpr const char* kMemoryPath = "/dev/shm";
constexpr const char* kCurveVolume = "flux-curve";
constexpr const char* kCurvePath = "/curve";
constexpr int kConfigMapMode = 0755;
constexpr int kCurveMode = 0400;

struct FluxNames {
  std::string config_map;
  std::string secret;
};

Json mount(const std::string& name, const char* path, bool read_only = false) {
  Json m = {{"name", name}, {"mountPath", path}};
  if (read_only) m["readOnly"] = true;
  return m;
}

/// Upstream's volumes, in its order: spack-install, flux-install, the ConfigMap,
/// shared-memory, then the CURVE Secret.
void add_volumes(const FluxNames& names, Json* pod_spec) {
  Json volumes[] = {
      {{"name", kSpackVolume}, {"emptyDir", Json::object()}},
      {{"name", kInstallVolume}, {"emptyDir", Json::object()}},
      {{"name", names.config_map},
       {"configMap", {{"name", names.config_map}, {"defaultMode", kConfigMapMode}}}},
      {{"name", kMemoryVolume}, {"emptyDir", {{"medium", "Memory"}}}},
      {{"name", kCurveVolume},
       {"secret", {{"secretName", names.secret}, {"defaultMode", kCurveMode}}}},
  };
  for (const Json& volume : volumes)
    upsert_by_key(pod_spec, "volumes", volume, "name");
}

void add_installer(const FluxNames& names, const FluxSettings& settings, Json* pod_spec) {
  Json installer = {
      {"name", kFluxInstallerName},
      {"image", settings.view_image},
      {"command", {"/bin/bash", std::string(kConfigPath) + "/init.sh"}},
      {"volumeMounts",
       {mount(kInstallVolume, kInstallPath), mount(names.config_map, kConfigPath, true)}}};
  Json& list = (*pod_spec)["initContainers"];
  if (!list.is_array()) list = Json::array();
  list.push_back(std::move(installer));
}

void add_node_mounts(const FluxNames& names, Json* node) {
  Json mounts[] = {mount(kInstallVolume, kInstallPath), mount(kSpackVolume, kSpackPath),
                   mount(names.config_map, kConfigPath, true),
                   mount(kCurveVolume, kCurvePath, true), mount(kMemoryVolume, kMemoryPath, true)};
  for (const Json& m : mounts)
    upsert_by_key(node, "volumeMounts", m, "mountPath");
}

/// The original command as one string: the TrainJob's command (else the runtime's) and
/// the TrainJob's args, joined by spaces and trimmed, as upstream hands it to the entrypoint.
std::string original_command(const Json& trainer, const Json& runtime_node) {
  auto command = trainer.find("command");
  const Json* source = command != trainer.end() && command->is_array() ? &*command : nullptr;
  if (source == nullptr && runtime_node.contains("command")) source = &runtime_node["command"];
  auto args = trainer.find("args");
  std::string joined;
  bool first_word = true;
  for (const Json* list : {source, args != trainer.end() ? &*args : nullptr}) {
    if (list == nullptr || !list->is_array()) continue;
    for (const Json& word : *list) {
      if (!first_word) joined += ' ';
      joined += word.is_string() ? word.get<std::string>() : word.dump();
      first_word = false;
    }
  }
  const char* space = " \t\n\v\f\r";
  size_t first = joined.find_first_not_of(space);
  if (first == std::string::npos) return "";
  return joined.substr(first, joined.find_last_not_of(space) - first + 1);
}

/// Upstream replaces the command and drops the TrainJob's args (they are in the command
/// string); the runtime's args, if any, stay.
void wrap_command(const Json& trainer, const Json& runtime_node, Json* node) {
  (*node)["command"] = {"/bin/bash", std::string(kConfigPath) + "/entrypoint.sh",
                        original_command(trainer, runtime_node)};
  if (runtime_node.contains("args")) {
    (*node)["args"] = runtime_node["args"];
  } else {
    node->erase("args");
  }
}

FluxCluster describe_cluster(const CompileState& state, const PolicyBuildInput& input,
                             int64_t nodes) {
  FluxCluster cluster;
  cluster.trainjob = state.trainjob.name;
  cluster.name_space = state.trainjob.name_space;
  cluster.nodes = nodes;
  Field runtime_tasks = state.ml_policy["flux"]["numProcPerNode"];
  if (input.trainer.num_proc_per_node.is_number_integer()) {
    cluster.tasks_per_node = input.trainer.num_proc_per_node.get<int64_t>();
  } else if (runtime_tasks) {
    cluster.tasks_per_node = runtime_tasks.value->get<int64_t>();
  }
  // resourcesPerNode replaces the runtime's resources here (no merge), as upstream counts.
  const Json& resources = input.trainer.resources.is_object() ? input.trainer.resources
                          : input.runtime_node.contains("resources")
                              ? input.runtime_node["resources"]
                              : Json();
  cluster.gpus_per_node = gpu_count(resources);
  return cluster;
}

Json scripts_config_map(const CompileState& state, const FluxNames& names,
                        const FluxCluster& cluster) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", policy_object_metadata(state, names.config_map)},
              {"data",
               {{"entrypoint.sh", flux_entrypoint_script(cluster)},
                {"init.sh", flux_init_script(cluster)}}}};
}

bool add_curve_secret(CompileState* state, const FluxNames& names) {
  if (!emit_generated_secret(*state, names.secret, "the Flux brokers' CURVE certificate")) {
    return true;
  }
  std::optional<CurveKeyPair> keys = generate_curve_key_pair();
  if (!keys) {
    state->trainjob_reader.error("metadata.name", "could not generate the Flux CURVE key pair");
    return false;
  }
  std::string certificate = curve_certificate(state->trainjob.name, *keys);
  state->extra_objects.push_back(
      generated_secret(*state, names.secret, {{"curve.cert", encode_base64(certificate)}}));
  return true;
}

/// Upstream's checks; then the trainer job takes spec.trainer.numNodes as without a policy.
bool size_flux(CompileState* state, const TrainerSettings& trainer) {
  if (!check_flux(*state)) return false;
  ReplicatedJob* trainer_job = state->trainer_job();
  if (trainer.num_nodes && trainer_job != nullptr) trainer_job->count = *trainer.num_nodes;
  return true;
}

bool build_flux(CompileState* state, const PolicyBuildInput& input) {
  FluxNames names{state->trainjob.name + "-flux-entrypoint", state->trainjob.name + "-flux-curve"};
  FluxSettings settings;
  if (!read_flux_settings(*state, input.runtime_node, &settings)) return false;
  ReplicatedJob* node_job = state->find_job(kNodeName);
  ReplicatedJob* trainer_job = state->trainer_job();
  if (node_job == nullptr || trainer_job == nullptr) return false;  // check_flux reported it
  Json* trainer_node = find_container(&trainer_job->pod_spec(), kNodeName);
  if (trainer_node != nullptr) {
    const Json& trainer = state->trainjob.trainer ? *state->trainjob.trainer.value : Json::object();
    wrap_command(trainer, input.runtime_node, trainer_node);
  }
  add_volumes(names, &node_job->pod_spec());
  add_installer(names, settings, &node_job->pod_spec());
  Json* node = find_container(&node_job->pod_spec(), kNodeName);
  if (node != nullptr) add_node_mounts(names, node);
  FluxCluster cluster = describe_cluster(*state, input, trainer_job->count);
  cluster.settings = settings;
  state->extra_objects.push_back(scripts_config_map(*state, names, cluster));
  return add_curve_secret(state, names);
}

}  // namespace

const PolicyPlugin kFluxPlugin = {"flux", {}, "", nullptr, size_flux, build_flux, nullptr};

}  // namespace trainjob
