#include "cluster/gang_fit.h"

#include <map>

#include "k8s/quantity.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

using Resources = std::map<std::string, __int128>;  ///< nanos per resource

/// One gang: its name for messages, and the pod templates of its pods, one entry per pod.
struct Gang {
  std::string name;
  std::vector<const Json*> pods;  ///< each pod's spec
};

void add_list(const Json& list, Resources* out) {
  if (!list.is_object()) return;
  for (const auto& [name, value] : list.items()) {
    if (!value.is_string() && !value.is_number()) continue;
    std::optional<Quantity> q =
        parse_quantity(value.is_string() ? value.get<std::string>() : value.dump(), nullptr);
    if (q) (*out)[name] += q->nanos;
  }
}

Resources pod_needs(const Json& pod_spec) {
  Resources needs;
  const Json& containers = json_path(pod_spec, {"containers"});
  if (containers.is_array()) {
    for (const Json& container : containers) {
      Resources one;
      add_list(json_path(container, {"resources", "limits"}), &one);
      add_list(json_path(container, {"resources", "requests"}), &one);  // requests win
      Resources requests;
      add_list(json_path(container, {"resources", "requests"}), &requests);
      for (auto& [name, nanos] : one)
        needs[name] += requests.count(name) != 0 ? requests[name] : nanos;
    }
  }
  needs["pods"] += 1'000'000'000;
  return needs;
}

int64_t parallelism(const Json& job) {
  const Json& value = json_path(job, {"spec", "parallelism"});
  return value.is_number_integer() ? value.get<int64_t>() : 1;
}

void add_pods(const Json& job, Gang* gang) {
  const Json& spec = json_path(job, {"spec", "template", "spec"});
  for (int64_t i = 0; i < parallelism(job) && gang->pods.size() < 100000; ++i)
    gang->pods.push_back(&spec);
}

std::vector<Gang> gangs_of(const std::vector<Json>& objects) {
  std::vector<Gang> gangs;
  std::map<std::string, size_t> by_group;  // a PodGroup's name -> its gang
  for (const Json& object : objects) {
    const std::string& kind = string_member_ref(object, "kind");
    if (kind == "PodGroup" && string_member_ref(object, "apiVersion") == kWorkloadApiVersion &&
        json_path(object, {"spec", "schedulingPolicy", "gang"}).is_object()) {
      std::string name = string_member(json_path(object, {"metadata"}), "name");
      by_group[name] = gangs.size();
      gangs.push_back({kKubectlWorkloadPodGroupPrefix + name, {}});
    }
  }
  for (const Json& object : objects) {
    if (string_member_ref(object, "kind") != "Job") continue;
    const Json& group =
        json_path(object, {"spec", "template", "spec", "schedulingGroup", "podGroupName"});
    if (group.is_string() && by_group.count(group.get<std::string>()) != 0) {
      add_pods(object, &gangs[by_group[group.get<std::string>()]]);
    } else if (json_path(object, {"spec", "scheduling", "schedulingPolicy", "gang"}).is_object()) {
      gangs.push_back(
          {kKubectlJobPrefix + string_member(json_path(object, {"metadata"}), "name"), {}});
      add_pods(object, &gangs.back());
    }
  }
  return gangs;
}

bool usable(const Json& node, const Json& pod_spec) {
  if (json_path(node, {"spec", "unschedulable"}) == true) return false;
  const Json& selector = json_path(pod_spec, {"nodeSelector"});
  if (!selector.is_object()) return true;
  const Json& labels = json_path(node, {"metadata", "labels"});
  for (const auto& [key, value] : selector.items()) {
    if (!labels.is_object() || !labels.contains(key) || labels[key] != value) return false;
  }
  return true;
}

bool fits(const Resources& needs, const Resources& room) {
  for (const auto& [name, nanos] : needs) {
    auto it = room.find(name);
    if (nanos > (it == room.end() ? 0 : it->second)) return false;
  }
  return true;
}

/// How many of the gang's pods fit at once, and on how many usable nodes.
int64_t place(const Gang& gang, const std::vector<Json>& nodes, int64_t* usable_nodes) {
  std::vector<Resources> room(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n)
    add_list(json_path(nodes[n], {"status", "allocatable"}), &room[n]);
  int64_t placed = 0;
  for (const Json* pod : gang.pods) {
    Resources needs = pod_needs(*pod);
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (!usable(nodes[n], *pod) || !fits(needs, room[n])) continue;
      for (const auto& [name, nanos] : needs)
        room[n][name] -= nanos;
      ++placed;
      break;
    }
  }
  *usable_nodes = 0;  // by the first pod's nodeSelector
  for (const Json& node : nodes)
    *usable_nodes += gang.pods.empty() || usable(node, *gang.pods[0]) ? 1 : 0;
  return placed;
}

}  // namespace

bool has_gang(const std::vector<Json>& objects) {
  for (const Json& object : objects) {
    if (string_member_ref(object, "apiVersion") == kWorkloadApiVersion ||
        json_path(object, {"spec", "scheduling", "schedulingPolicy", "gang"}).is_object())
      return true;
  }
  return false;
}

std::vector<std::string> unfit_gangs(const std::vector<Json>& objects,
                                     const std::vector<Json>& nodes) {
  std::vector<std::string> out;
  for (const Gang& gang : gangs_of(objects)) {
    int64_t usable_nodes = 0;
    int64_t placed = place(gang, nodes, &usable_nodes);
    auto pods = static_cast<int64_t>(gang.pods.size());
    if (placed >= pods) continue;
    out.push_back(gang.name + ": the gang of " + std::to_string(pods) + " pods fits at most " +
                  std::to_string(placed) + " at once on the " + std::to_string(usable_nodes) +
                  " nodes its pods may use (by nodeSelector and allocatable resources, empty), "
                  "so none starts until the cluster holds all " +
                  std::to_string(pods) + ": add nodes there, or ask for fewer (numNodes)");
  }
  return out;
}

}  // namespace trainjob
