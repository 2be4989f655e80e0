#include "legacy/gang_resources.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "k8s/quantity.h"

namespace trainjob {
namespace {

using ResourceSum = std::map<std::string, Quantity>;

std::optional<Quantity> quantity_of(const Json& value) {
  if (value.is_string()) return parse_quantity(value.get<std::string>(), nullptr);
  if (value.is_number()) return parse_quantity(value.dump(), nullptr);
  return std::nullopt;
}

/// `list` times `times`, added into `sum` resource by resource.
void add_list(const Json& list, int64_t times, ResourceSum* sum) {
  if (!list.is_object()) return;
  for (const auto& entry : list.items()) {
    std::optional<Quantity> quantity = quantity_of(entry.value());
    if (!quantity) continue;  // the schema reports it
    Quantity& slot = (*sum)[entry.key()];
    slot = quantity_add(slot, quantity_scale(*quantity, times));
  }
}

const Json& containers_of(const GangReplica& replica) {
  static const Json kNone = Json::array();
  if (replica.pod_spec == nullptr) return kNone;
  const Json& containers = json_member(*replica.pod_spec, "containers");
  return containers.is_array() ? containers : kNone;
}

/// AddResourceList: the requests when the container has any map of them (an empty one
/// too), else the limits.
void add_operator_pod(const GangReplica& replica, int64_t pods, ResourceSum* sum) {
  for (const Json& container : containers_of(replica)) {
    const Json& resources = json_member(container, "resources");
    const Json& requests = json_member(resources, "requests");
    add_list(requests.is_null() ? json_member(resources, "limits") : requests, pods, sum);
  }
}

/// addResources: the requests, and the limits of the resources not requested.
void add_mpi_operator_pods(const GangReplica& replica, int64_t pods, ResourceSum* sum) {
  for (const Json& container : containers_of(replica)) {
    const Json& resources = json_member(container, "resources");
    const Json& requests = json_member(resources, "requests");
    Json merged = requests.is_object() ? requests : Json::object();
    const Json& limits = json_member(resources, "limits");
    if (limits.is_object()) {
      for (const auto& entry : limits.items()) {
        if (!merged.contains(entry.key())) merged[entry.key()] = entry.value();
      }
    }
    add_list(merged, pods, sum);
  }
}

Json to_json(const ResourceSum& sum) {
  Json out = Json::object();
  for (const auto& [name, quantity] : sum)
    out[name] = format_quantity(quantity);
  return out;
}

}  // namespace

Json training_operator_min_resources(const std::vector<GangReplica>& replicas, int64_t min_member) {
  ResourceSum sum;
  int64_t counted = 0;
  for (const GangReplica& replica : replicas) {
    int64_t pods = std::min(std::max<int64_t>(replica.replicas, 0), min_member - counted);
    if (pods <= 0) continue;
    counted += pods;
    add_operator_pod(replica, pods, &sum);
  }
  return to_json(sum);
}

Json mpi_operator_min_resources(const GangReplica& launcher, const GangReplica* worker,
                                int64_t min_member) {
  ResourceSum sum;
  int64_t workers = worker != nullptr ? worker->replicas : 0;
  if (worker != nullptr && launcher.replicas + workers > min_member)
    workers = std::max<int64_t>(min_member - 1, 0);
  add_mpi_operator_pods(launcher, launcher.replicas, &sum);
  if (worker != nullptr) add_mpi_operator_pods(*worker, workers, &sum);
  return to_json(sum);
}

Json training_operator_pod_resources(const GangReplica& replica) {
  ResourceSum sum;
  add_operator_pod(replica, 1, &sum);
  return to_json(sum);
}

}  // namespace trainjob
