#include "local/local_mpi.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <unistd.h>

#include "render/jobset_labels.h"
#include "render/mpi_policy.h"

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

/// The hostfile ConfigMap's name when `job` is an MPI launcher, else "".
std::string launcher_hostfile(Json* job) {
  Json* pod = pod_spec_of(job);
  if (pod == nullptr || !json_member(*pod, "volumes").is_array()) return {};
  for (const Json& volume : (*pod)["volumes"]) {
    if (string_member(volume, "name") == kMpiHostfileVolume) {
      return string_member(json_member(volume, "configMap"), "name");
    }
  }
  return {};
}

/// Removes the SSH volume and every mount of it: nothing logs in anywhere.
void drop_ssh_volume(Json* pod) {
  auto drop = [](Json* list, const char* key) {
    if (!list->is_array()) return;
    auto& items = list->get_ref<Json::array_t&>();
    items.erase(
        std::remove_if(items.begin(), items.end(),
                       [&](const Json& item) { return string_member(item, key) == kMpiSshVolume; }),
        items.end());
  };
  if (pod->contains("volumes")) drop(&(*pod)["volumes"], "name");
  for (const char* list : {"containers", "initContainers"}) {
    if (!json_member(*pod, list).is_array()) continue;
    for (Json& container : (*pod)[list]) {
      if (container.contains("volumeMounts")) drop(&container["volumeMounts"], "name");
    }
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

/// Adapts the TrainJob whose launcher is `launcher`: its node Jobs go, its hostfile
/// names this machine.
void adapt_trainjob(std::vector<Json>* objects, Json* launcher, const std::string& hostfile_name,
                    std::vector<std::string>* notes) {
  std::string trainjob = label(*launcher, kTrainJobNameLabel);
  drop_ssh_volume(pod_spec_of(launcher));
  for (Json& object : *objects) {
    if (string_member(object, "kind") != "ConfigMap" || name_of(object) != hostfile_name) continue;
    Json& data = object["data"];
    if (!data.is_object()) continue;
    int64_t slots = hostfile_slots(string_member(data, "hostfile"));
    data["hostfile"] = "localhost slots=" + std::to_string(slots) + "\n";
    notes->push_back("MPI: hostfile " + hostfile_name +
                     " -> localhost slots=" + std::to_string(slots) +
                     "; only the launcher runs, mpirun starts every "
                     "rank here without ssh");
  }
  auto& items = *objects;
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const Json& object) {
                               return string_member(object, "kind") == "Job" &&
                                      label(object, kTrainJobNameLabel) == trainjob &&
                                      label(object, kReplicatedJobNameLabel) == kMpiNodeJob;
                             }),
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
    if (at != std::string::npos) {
      slots = std::strtoll(line.c_str() + at + 6, nullptr, 10);
      if (slots < 1) slots = 1;
    }
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
        adapt_trainjob(objects, &object, hostfile, notes);
        break;
      }
    }
  }
  return true;
}

}  // namespace trainjob
