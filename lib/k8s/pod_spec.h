// Containers of a pod spec looked up by name: what the compiler, the legacy kinds, convert
// and the client side read alike.
#ifndef TRAINJOB_K8S_POD_SPEC_H_
#define TRAINJOB_K8S_POD_SPEC_H_

#include <cstddef>
#include <string_view>

#include "load/json.h"

namespace trainjob {

/// The index of the first container named `name` in `pod_spec.containers`, or kNoContainer
/// (also when `pod_spec` is no mapping or has no list there).
inline constexpr size_t kNoContainer = static_cast<size_t>(-1);
size_t container_index(const Json& pod_spec, std::string_view name);
/// The first container named `name` in `pod_spec.containers`, or null.
Json* find_container(Json* pod_spec, std::string_view name);
const Json* find_container(const Json& pod_spec, std::string_view name);
/// True when `containers` or `initContainers` of the pod spec has `name`.
bool has_container(const Json& pod_spec, std::string_view list, std::string_view name);

}  // namespace trainjob

#endif  // TRAINJOB_K8S_POD_SPEC_H_
