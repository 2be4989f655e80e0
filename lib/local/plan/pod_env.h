// A container's environment as the kubelet builds it, for one pod run on this machine:
// `value` with `$(VAR)` references to earlier variables, `valueFrom` field and resource
// references, and ConfigMap values taken from the inputs.
#ifndef TRAINJOB_LOCAL_PLAN_POD_ENV_H_
#define TRAINJOB_LOCAL_PLAN_POD_ENV_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// What the kubelet would know about the pod that is not in its spec.
struct PodFacts {
  std::string name;
  std::string name_space;
  Json labels = Json::object();
  Json annotations = Json::object();
  std::string node_name;  ///< spec.nodeName
  std::string ip;         ///< status.podIP and status.hostIP
  std::string service_account = "default";
};

/// ConfigMaps by "namespace/name".
using ConfigMapIndex = std::map<std::string, const Json*>;

using EnvList = std::vector<std::pair<std::string, std::string>>;

/// The final variables of `container`, in the order they were first defined (a later
/// definition of the same name replaces the value). Returns false with `*error` naming
/// the variable when one cannot be resolved on this machine (a Secret, say).
bool resolve_container_env(const Json& container, const PodFacts& pod,
                           const ConfigMapIndex& config_maps, EnvList* out, std::string* error);

/// The value of a `fieldRef.fieldPath` for `pod`, or false when it names no field the
/// kubelet resolves.
bool pod_field_value(const std::string& field_path, const PodFacts& pod, std::string* value);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_POD_ENV_H_
