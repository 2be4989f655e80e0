#include "kube/resources.h"

#include <cctype>
#include <vector>

#include "kube/client.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

const std::vector<ResourceType>& known_types() {
  static const std::vector<ResourceType> types = {
      {"v1", "ConfigMap", "configmaps", true},
      {"v1", "Secret", "secrets", true},
      {"v1", "Service", "services", true},
      {"v1", "Pod", "pods", true},
      {"v1", "Event", "events", true},
      {"v1", "Namespace", "namespaces", false},
      {"v1", "Node", "nodes", false},
      {"v1", "PersistentVolumeClaim", "persistentvolumeclaims", true},
      {"v1", "ServiceAccount", "serviceaccounts", true},
      {kBatchApiVersion, "Job", "jobs", true},
      {kSchedulingApiVersion, "PodGroup", "podgroups", true},
      {kVolcanoPodGroupApiVersion, "PodGroup", "podgroups", true},
      {kWorkloadApiVersion, "Workload", "workloads", true},
      {kWorkloadApiVersion, "PodGroup", "podgroups", true},
      {kKaiPodGroupApiVersion, "PodGroup", "podgroups", true},
      {kTrainerApiVersion, "TrainJob", "trainjobs", true},
      {kTrainerApiVersion, "TrainingRuntime", "trainingruntimes", true},
      {kTrainerApiVersion, "ClusterTrainingRuntime", "clustertrainingruntimes", false},
  };
  return types;
}

const ResourceType& known(const char* api_version, const char* kind) {
  for (const ResourceType& type : known_types()) {
    if (type.api_version == api_version && type.kind == kind) return type;
  }
  static const ResourceType none;
  return none;
}

std::string plural_of(const std::string& kind) {
  std::string lower;
  for (char c : kind)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower.empty()) return lower;
  if (lower.back() == 's' || lower.back() == 'x') return lower + "es";
  if (lower.back() == 'y') return lower.substr(0, lower.size() - 1) + "ies";
  return lower + "s";
}

}  // namespace

std::string ResourceType::group() const {
  size_t slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

std::string ResourceType::qualified_kind() const {
  std::string lower;
  for (char c : kind)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return group().empty() ? lower : lower + "." + group();
}

ResourceType resource_type(const std::string& api_version, const std::string& kind) {
  for (const ResourceType& type : known_types()) {
    if (type.api_version == api_version && type.kind == kind) return type;
  }
  return ResourceType{api_version, kind, plural_of(kind), true};
}

ResourceType resource_type_of(const Json& object) {
  return resource_type(string_member(object, "apiVersion"), string_member(object, "kind"));
}

std::string collection_path(const ResourceType& type, const std::string& name_space) {
  std::string base =
      type.group().empty() ? "/api/" + type.api_version : "/apis/" + type.api_version;
  if (type.namespaced && !name_space.empty()) base += "/namespaces/" + name_space;
  return base + "/" + type.plural;
}

std::string object_path(const ResourceType& type, const std::string& name_space,
                        const std::string& name) {
  return collection_path(type, name_space) + "/" + name;
}

const ResourceType& config_map_type() {
  return known("v1", "ConfigMap");
}
const ResourceType& secret_type() {
  return known("v1", "Secret");
}
const ResourceType& service_type() {
  return known("v1", "Service");
}
const ResourceType& job_type() {
  return known(kBatchApiVersion, "Job");
}
const ResourceType& node_type() {
  return known("v1", "Node");
}
const ResourceType& pod_type() {
  return known("v1", "Pod");
}
const ResourceType& event_type() {
  return known("v1", "Event");
}
const ResourceType& coscheduling_pod_group_type() {
  return known(kSchedulingApiVersion, "PodGroup");
}
const ResourceType& volcano_pod_group_type() {
  return known(kVolcanoPodGroupApiVersion, "PodGroup");
}
const ResourceType& workload_type() {
  return known(kWorkloadApiVersion, "Workload");
}
const ResourceType& workload_pod_group_type() {
  return known(kWorkloadApiVersion, "PodGroup");
}
const ResourceType& kai_pod_group_type() {
  return known(kKaiPodGroupApiVersion, "PodGroup");
}

std::string trainjob_selector(const std::string& name) {
  return url_escape(std::string(kTrainJobNameLabel) + "=" + name);
}

std::string submitted_selector(const std::string& name) {
  return url_escape(std::string(kTrainJobNameLabel) + "=" + name + "," + kCreatedBySubmitLabel +
                    "=" + kCreatedBySubmitValue);
}

std::string rendered_selector(const std::string& name) {
  return url_escape(std::string(kTrainJobNameLabel) + "=" + name + "," + kManagedByLabel + "=" +
                    kManagedByValue);
}

}  // namespace trainjob
