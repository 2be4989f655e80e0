#include "render/steps/advisories.h"

#include <string_view>

namespace trainjob {
namespace {

/// Where a volume of the compiled pod templates was written: the TrainJob override that
/// adds it, else the runtime's replicated job.
struct VolumeOrigin {
  const FieldReader* reader;
  std::string path;
};

VolumeOrigin find_origin(const CompileState& state, const ReplicatedJob& job,
                         const std::string& volume) {
  for (const PodOverride& override : state.trainjob.overrides) {
    Field volumes = override.pod_spec["volumes"];
    if (!volumes || !volumes.value->is_array()) continue;
    for (size_t i = 0; i < volumes.value->size(); ++i) {
      if (string_member((*volumes.value)[i], "name") == volume) {
        return {&state.trainjob_reader, volumes.at(i).path()};
      }
    }
  }
  return {&state.runtime_reader, job.path() + ".template.spec.template.spec.volumes"};
}

std::string object_key(const CompileState& state, const std::string& name) {
  return state.trainjob.name_space + "/" + name;
}

/// The objects among the inputs a volume may name (null: not known).
struct InputObjects {
  const std::set<std::string>* config_maps;
  const std::set<std::string>* claims;
};

void check_claim(const CompileState& state, const ReplicatedJob& job, const std::string& name,
                 const Json& volume, const std::set<std::string>* claims) {
  auto claim = volume.find("persistentVolumeClaim");
  if (claims == nullptr || claim == volume.end()) return;
  std::string claim_name = string_member(*claim, "claimName");
  if (claim_name.empty() || claims->count(object_key(state, claim_name)) > 0) return;
  VolumeOrigin origin = find_origin(state, job, name);
  origin.reader->warning(origin.path, "PersistentVolumeClaim \"" + claim_name +
                                          "\" is not among the inputs: it must already exist in "
                                          "the cluster, or the pods never start");
}

void check_volume(const CompileState& state, const ReplicatedJob& job, const Json& volume,
                  const InputObjects& inputs, std::set<std::string>* warned) {
  std::string name = string_member(volume, "name");
  if (!warned->insert(name).second) return;  // the same volume in several jobs: say it once
  const std::set<std::string>* config_maps = inputs.config_maps;
  check_claim(state, job, name, volume, inputs.claims);
  auto config_map = volume.find("configMap");
  if (config_maps != nullptr && config_map != volume.end()) {
    std::string map_name = string_member(*config_map, "name");
    auto optional_field = config_map->is_object() ? config_map->find("optional") : volume.end();
    bool optional =
        config_map->is_object() && optional_field != config_map->end() && *optional_field == true;
    if (!optional && config_maps->count(object_key(state, map_name)) == 0) {
      VolumeOrigin origin = find_origin(state, job, name);
      origin.reader->warning(origin.path, "ConfigMap \"" + map_name +
                                              "\" is not among the inputs: it must already exist "
                                              "in the cluster, or the pods never start");
    }
  }
  if (volume.contains("hostPath")) {
    VolumeOrigin origin = find_origin(state, job, name);
    origin.reader->warning(origin.path, "hostPath volume \"" + name +
                                            "\": the path must exist on every node a pod can run "
                                            "on, it does not move with the job, and it gives the "
                                            "pod access to the node's files");
  }
}

bool has_cpu_or_memory(const Json& resources) {
  for (const char* section : {"requests", "limits"}) {
    auto list = resources.find(section);
    if (list != resources.end() && list->is_object() &&
        (list->contains("cpu") || list->contains("memory"))) {
      return true;
    }
  }
  return false;
}

void check_best_effort(const CompileState& state, const TrainerSettings& trainer) {
  const Json& resources = trainer.resources;
  bool replaces = resources.is_object() && !state.dialect.merge_resources &&
                  (resources.contains("requests") || resources.contains("limits"));
  if (!replaces || has_cpu_or_memory(resources)) return;
  state.trainjob_reader.warning(
      state.trainjob.trainer["resourcesPerNode"].path(),
      "replaces the node container's resources (Trainer v" + std::string(state.dialect.version) +
          " semantics) and sets no CPU or memory: the pods get BestEffort QoS "
          "and are the first to be evicted");
}

}  // namespace

void warn_advisories(const CompileState& state, const TrainerSettings& trainer,
                     const std::set<std::string>* config_maps,
                     const std::set<std::string>* claims) {
  std::set<std::string> warned;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    const Json& pod_spec = job.job_template["spec"]["template"]["spec"];
    auto volumes = pod_spec.find("volumes");
    if (volumes == pod_spec.end() || !volumes->is_array()) continue;
    for (const Json& volume : *volumes) {
      if (volume.is_object()) check_volume(state, job, volume, {config_maps, claims}, &warned);
    }
  }
  check_best_effort(state, trainer);
}

}  // namespace trainjob
