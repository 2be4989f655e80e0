#include "local/plan/plan_volumes.h"

#include <algorithm>

#include "local/plan/plan_checks.h"
#include "util/beneath.h"

namespace trainjob {
namespace {

bool find_config_map(const Json& source, const ConfigMapIndex& config_maps, const LocalPod& pod,
                     const Json** found, std::string* error) {
  std::string name = string_member(source, "name");
  auto it = config_maps.find(pod.name_space + "/" + name);
  if (it != config_maps.end()) {
    *found = it->second;
    return true;
  }
  if (json_member(source, "optional") == true) return true;
  *error = "pod " + pod.name + ": ConfigMap \"" + name +
           "\" is not among the inputs; add it with -f, or build it with --from-file";
  return false;
}

/// Fills `planned` from one entry of spec.volumes; false with `*problem` (the field and
/// what is wrong with it) or `*error` (already naming the pod) when it cannot be planned.
bool plan_volume(const Json& volume, const ConfigMapIndex& config_maps, const LocalOptions& options,
                 const LocalPod& pod, LocalVolume* planned, std::string* problem,
                 std::string* error) {
  planned->name = string_member(volume, "name");
  *problem = single_name_problem(planned->name);
  if (!problem->empty()) {
    *problem = "name: " + *problem;
    return false;
  }
  planned->work_relative = pod.name + "/" + planned->name;
  planned->host_dir = options.work_dir + "/" + planned->work_relative;
  if (const Json& source = json_member(volume, "configMap"); source.is_object()) {
    planned->kind = LocalVolume::Kind::kConfigMap;
    planned->source = source;
    if (!find_config_map(source, config_maps, pod, &planned->config_map, error)) return false;
    *problem = config_map_volume_problem(source, planned->config_map);
    if (!problem->empty()) *problem = "configMap." + *problem;
  } else if (const Json& host = json_member(volume, "hostPath"); host.is_object()) {
    planned->kind = LocalVolume::Kind::kHostPath;
    planned->source = host;
    planned->host_dir = string_member(host, "path");
    planned->work_relative.clear();
    std::string refusal = options.allow_host_path ? "" : host_path_refusal(planned->host_dir);
    if (!refusal.empty()) {
      *problem = "hostPath.path " + quoted_value(planned->host_dir) + " is refused: " + refusal +
                 " would be open to the pod; pass --allow-host-path to run it anyway";
    }
  } else if (json_member(volume, "emptyDir").is_null()) {
    // Kept so that a mount of it can say what it is; only a mounted one is an error.
    planned->kind = LocalVolume::Kind::kEmptyDir;
    planned->host_dir.clear();
    planned->work_relative.clear();
  }
  return problem->empty();
}

}  // namespace

bool plan_pod_volumes(const Json& spec, const ConfigMapIndex& config_maps,
                      const LocalOptions& options, LocalPod* pod, std::string* error) {
  const Json& list = json_member(spec, "volumes");
  if (!list.is_array()) return true;
  for (size_t i = 0; i < list.size(); ++i) {
    LocalVolume planned;
    std::string problem;
    if (!plan_volume(list[i], config_maps, options, *pod, &planned, &problem, error)) {
      if (!problem.empty()) {
        *error = "pod " + pod->name + ", volume " + quoted_value(planned.name) + " (spec.volumes[" +
                 std::to_string(i) + "]): " + problem;
      }
      return false;
    }
    pod->volumes.push_back(std::move(planned));
  }
  return true;
}

bool plan_container_mounts(const Json& container, const LocalPod& pod,
                           std::vector<LocalMount>* mounts, std::string* error) {
  const Json& list = json_member(container, "volumeMounts");
  if (!list.is_array()) return true;
  for (const Json& mount : list) {
    std::string name = string_member(mount, "name");
    auto volume = std::find_if(pod.volumes.begin(), pod.volumes.end(),
                               [&](const LocalVolume& v) { return v.name == name; });
    if (volume == pod.volumes.end() || volume->host_dir.empty()) {
      *error = "volume " + quoted_value(name) +
               " is not a configMap, hostPath or emptyDir volume, which are all that can be "
               "provided locally";
      return false;
    }
    std::string host_path = volume->host_dir;
    std::string sub_path = string_member(mount, "subPath");
    if (!sub_path.empty()) {
      std::string problem = beneath_path_problem(sub_path);
      if (!problem.empty()) {
        *error =
            "volume " + quoted_value(name) + ": subPath " + quoted_value(sub_path) + ": " + problem;
        return false;
      }
      host_path += "/" + sub_path;
    }
    mounts->push_back({string_member(mount, "mountPath"), host_path});
  }
  return true;
}

void plan_read_only(const Json& spec, LocalPod* pod, std::vector<std::string>* warnings) {
  for (LocalVolume& volume : pod->volumes) {
    size_t mounts = 0;
    size_t read_only = 0;
    for (const char* key : {"initContainers", "containers"}) {
      const Json& containers = json_member(spec, key);
      if (!containers.is_array()) continue;
      for (const Json& container : containers) {
        const Json& list = json_member(container, "volumeMounts");
        if (!list.is_array()) continue;
        for (const Json& mount : list) {
          if (string_member(mount, "name") != volume.name) continue;
          ++mounts;
          read_only += json_member(mount, "readOnly") == true ? 1 : 0;
        }
      }
    }
    switch (volume.kind) {
      case LocalVolume::Kind::kConfigMap:
        volume.read_only = true;  // the kubelet mounts configMap volumes read-only
        break;
      case LocalVolume::Kind::kEmptyDir:
        volume.read_only = mounts > 0 && read_only == mounts;
        break;
      case LocalVolume::Kind::kHostPath:
        if (read_only > 0) {
          warnings->push_back("pod " + pod->name + ", volume " + quoted_value(volume.name) +
                              ": readOnly is not enforced for a hostPath volume run locally; " +
                              "the pod can write to " + volume.host_dir);
        }
        break;
    }
  }
}

}  // namespace trainjob
