#include "local/local_mpi.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>
#include <unistd.h>
#include <utility>

#include "legacy/mpi_legacy_job.h"
#include "model/jobset_labels.h"
#include "model/step_place.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

std::string label(const Json& object, const char* key) {
  return string_member(json_member(json_member(object, "metadata"), "labels"), key);
}

std::string name_of(const Json& object) {
  return string_member(json_member(object, "metadata"), "name");
}

Json* pod_spec_of(Json* job) {
  if (string_member(*job, "kind") != "Job") return nullptr;
  Json& spec = (*job)["spec"];
  if (!spec.is_object() || !spec["template"].is_object()) return nullptr;
  Json& pod = spec["template"]["spec"];
  return pod.is_object() ? &pod : nullptr;
}

bool is_legacy_mpi(const Json& job, const char* step) {
  return annotation_of(job, kSourceKindAnnotation) == "MPIJob" && step_place_of(job).step == step;
}

/// The name of the ConfigMap volume `volume` of `pod`, else "".
std::string config_map_of(const Json& pod, const char* volume) {
  const Json& volumes = json_member(pod, "volumes");
  if (!volumes.is_array()) return {};
  for (const Json& entry : volumes) {
    if (string_member(entry, "name") == volume)
      return string_member(json_member(entry, "configMap"), "name");
  }
  return {};
}

/// The hostfile ConfigMap's name when `job` is an MPI launcher (a TrainJob's, or an
/// MPIJob's of either operator), else "".
std::string launcher_hostfile(Json* job) {
  Json* pod = pod_spec_of(job);
  if (pod == nullptr) return {};
  std::string hostfile = config_map_of(*pod, kMpiHostfileVolume);
  if (hostfile.empty() && is_legacy_mpi(*job, "launcher"))
    hostfile = config_map_of(*pod, kMpiConfigVolume);
  return hostfile;
}

/// A Job that only serves the launcher's remote starts: a TrainJob's `node` Jobs (sshd) and
/// an MPIJob's workers (sshd, or idle for v1's kubectl exec).
bool is_mpi_worker(const Json& object, const std::string& trainjob) {
  if (string_member(object, "kind") != "Job" || label(object, kTrainJobNameLabel) != trainjob)
    return false;
  return label(object, kReplicatedJobNameLabel) == kMpiNodeJob || is_legacy_mpi(object, "worker");
}

bool mounts_any(const Json& container, const std::set<std::string>& volumes) {
  const Json& mounts = json_member(container, "volumeMounts");
  if (!mounts.is_array()) return false;
  return std::any_of(mounts.begin(), mounts.end(), [&](const Json& mount) {
    return volumes.count(string_member(mount, "name")) != 0;
  });
}

/// Removes the volumes through which the launcher reaches other pods (the SSH key; v1's
/// kubectl and the init container that copies it and waits for the workers), with every
/// mount of them: nothing logs in anywhere.
void drop_remote_access(Json* pod) {
  static const std::set<std::string> kVolumes = {kMpiSshVolume, kMpiLegacySshVolume,
                                                 kMpiKubectlVolume};
  auto drop = [](Json* list, auto&& matches) {
    if (!list->is_array()) return;
    auto& items = list->get_ref<Json::array_t&>();
    items.erase(std::remove_if(items.begin(), items.end(), matches), items.end());
  };
  drop(&(*pod)["volumes"],
       [](const Json& volume) { return kVolumes.count(string_member(volume, "name")) != 0; });
  if (pod->contains("initContainers")) {
    drop(&(*pod)["initContainers"],
         [](const Json& container) { return mounts_any(container, kVolumes); });
  }
  if (!json_member(*pod, "containers").is_array()) return;
  for (Json& container : (*pod)["containers"]) {
    if (!container.contains("volumeMounts")) continue;
    drop(&container["volumeMounts"],
         [](const Json& mount) { return kVolumes.count(string_member(mount, "name")) != 0; });
  }
}

bool executable_in(const std::string& dir, const char* name) {
  std::string path = (dir.empty() ? "." : dir) + "/" + name;
  return ::access(path.c_str(), X_OK) == 0;
}

bool mpirun_available(const std::map<std::string, std::string>& image_dirs) {
  for (const auto& entry : image_dirs) {
    if (executable_in(entry.second, "mpirun")) return true;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path == nullptr ? "" : path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (executable_in(dir, "mpirun")) return true;
  }
  return false;
}

/// Intel MPI and MPICH hostfiles give slots as `host:N`; Open MPI's as `host slots=N`.
std::string local_hostfile(const std::string& hostfile, int64_t slots) {
  bool open_mpi = hostfile.empty() || hostfile.find("slots=") != std::string::npos;
  return (open_mpi ? "localhost slots=" : "localhost:") + std::to_string(slots) + "\n";
}

/// Adapts the job whose launcher is `launcher`: its worker Jobs go, its hostfile names this
/// machine.
void adapt_job(std::vector<Json>* objects, Json* launcher, const std::string& hostfile_name,
               std::vector<std::string>* notes) {
  std::string trainjob = label(*launcher, kTrainJobNameLabel);
  drop_remote_access(pod_spec_of(launcher));
  for (Json& object : *objects) {
    if (string_member(object, "kind") != "ConfigMap" || name_of(object) != hostfile_name) continue;
    Json& data = object["data"];
    if (!data.is_object()) continue;
    std::string hostfile = string_member(data, "hostfile");
    int64_t slots = hostfile_slots(hostfile);
    std::string local = local_hostfile(hostfile, slots);
    data["hostfile"] = local;
    local.pop_back();
    std::string note = "MPI: hostfile " + hostfile_name;
    note += " -> " + local + "; only the launcher runs, mpirun starts every rank here without ssh";
    notes->push_back(std::move(note));
  }
  auto& items = *objects;
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const Json& object) { return is_mpi_worker(object, trainjob); }),
              items.end());
}

}  // namespace

int64_t hostfile_slots(const std::string& hostfile) {
  std::stringstream lines(hostfile);
  std::string line;
  int64_t total = 0;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#') continue;
    int64_t slots = 1;
    size_t at = line.find("slots=");
    size_t colon = line.rfind(':');
    if (at != std::string::npos) {
      slots = std::strtoll(line.c_str() + at + 6, nullptr, 10);
    } else if (colon != std::string::npos) {
      slots = std::strtoll(line.c_str() + colon + 1, nullptr, 10);
    }
    if (slots < 1) slots = 1;
    if (__builtin_add_overflow(total, slots, &total)) total = std::numeric_limits<int64_t>::max();
  }
  return total;
}

bool adapt_mpi_for_local(std::vector<Json>* objects,
                         const std::map<std::string, std::string>& image_dirs,
                         std::vector<std::string>* notes, std::string* error) {
  std::vector<std::pair<std::string, std::string>> launchers;  // job name, hostfile
  for (Json& object : *objects) {
    std::string hostfile = launcher_hostfile(&object);
    if (!hostfile.empty()) launchers.emplace_back(name_of(object), hostfile);
  }
  if (launchers.empty()) return true;
  if (!mpirun_available(image_dirs)) {
    *error = "the MPI launcher " + launchers.front().first +
             " needs mpirun, which is not on PATH: install Open MPI (Debian and Ubuntu: "
             "apt-get install openmpi-bin) or map the launcher's image with --image-map";
    return false;
  }
  for (const auto& [job_name, hostfile] : launchers) {
    // Found again by name: erasing node Jobs moves the others.
    for (Json& object : *objects) {
      if (string_member(object, "kind") == "Job" && name_of(object) == job_name) {
        adapt_job(objects, &object, hostfile, notes);
        break;
      }
    }
  }
  return true;
}

}  // namespace trainjob
