#include "cluster/submit_scheduling.h"

#include "cluster/gang_fit.h"
#include "kube/kube_error.h"
#include "kube/resources.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

constexpr const char* kOtherwise =
    "; or gang the pods with a runtime's podGroupPolicy (coscheduling or Volcano installed), "
    "or submit without --gang and spec.scheduling";

/// The path of the first field of `sent` that `answered` lacks or holds otherwise (the
/// server adds defaults beside ours: only what was sent is compared); empty when none.
std::string first_dropped(const Json& sent, const Json& answered, const std::string& path) {
  if (answered.is_null()) return sent.is_null() ? "" : path;
  if (sent.is_object()) {
    for (const auto& [key, value] : sent.items()) {
      auto it = answered.is_object() ? answered.find(key) : answered.end();
      std::string at = path;
      at += "." + key;
      if (it == answered.end()) {
        if (!value.is_null()) return at;
        continue;
      }
      if (std::string dropped = first_dropped(value, *it, at); !dropped.empty()) return dropped;
    }
    return "";
  }
  if (sent.is_array()) {
    if (!answered.is_array() || answered.size() != sent.size()) return path;
    for (size_t i = 0; i < sent.size(); ++i) {
      std::string at = path + "[" + std::to_string(i) + "]";
      if (std::string dropped = first_dropped(sent[i], answered[i], at); !dropped.empty())
        return dropped;
    }
    return "";
  }
  return sent == answered ? "" : path;
}

/// What turns on what the server dropped at `path`.
std::string gate_of(const std::string& path) {
  if (path.find("schedulingConstraints") != std::string::npos)
    return "TopologyAwareWorkloadScheduling (alpha in 1.36) on the API server and the scheduler";
  if (path.find("resourceClaims") != std::string::npos)
    return "DRAWorkloadResourceClaims on the API server and the scheduler";
  if (path.find("schedulingGroup") != std::string::npos)
    return "GenericWorkload on the API server and the scheduler";
  return "WorkloadWithJob (and GenericWorkload) on the API server and the controller manager";
}

}  // namespace

std::string gang_scheduling_refusal(const Json& object, const ApplyResult& dry_run) {
  const std::string& kind = string_member_ref(object, "kind");
  bool workload_api = string_member_ref(object, "apiVersion") == kWorkloadApiVersion;
  if (workload_api && !dry_run.ok && dry_run.status == 404 && !dry_run.namespace_missing) {
    return "this cluster does not serve " + std::string(kWorkloadApiVersion) + " " + kind +
           " (Kubernetes' gang scheduling: 1.37 or later, with the feature gate GenericWorkload "
           "and --runtime-config=" +
           kWorkloadApiVersion + "=true on the API server)" + kOtherwise;
  }
  if (!dry_run.ok || (!workload_api && kind != "Job")) return "";
  std::string dropped;
  if (workload_api) {
    dropped =
        first_dropped(json_path(object, {"spec"}), json_path(dry_run.object, {"spec"}), "spec");
  } else {
    dropped = first_dropped(json_path(object, {"spec", "scheduling"}),
                            json_path(dry_run.object, {"spec", "scheduling"}), "spec.scheduling");
    if (dropped.empty()) {
      dropped =
          first_dropped(json_path(object, {"spec", "template", "spec", "schedulingGroup"}),
                        json_path(dry_run.object, {"spec", "template", "spec", "schedulingGroup"}),
                        "spec.template.spec.schedulingGroup");
    }
  }
  if (dropped.empty()) return "";
  return "the API server dropped " + dropped +
         ", so the pods would not be scheduled as asked: it takes the feature gate " +
         gate_of(dropped) + kOtherwise;
}

void warn_unfit_gangs(KubeClient* client, const std::vector<Json>& objects, std::FILE* err) {
  if (!has_gang(objects)) return;
  ObjectList nodes;
  try {
    nodes = list_objects(client, node_type(), "", "");
  } catch (const KubeError&) {
    return;  // nodes are cluster-scoped: many users may not list them
  }
  for (const std::string& warning : unfit_gangs(objects, nodes.items))
    std::fprintf(err, "warning: %s\n", warning.c_str());
}

}  // namespace trainjob
