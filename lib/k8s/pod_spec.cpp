#include "k8s/pod_spec.h"

namespace trainjob {
namespace {

/// The index of the first item named `name` in `pod_spec[list]`, or kNoContainer.
size_t index_in(const Json& pod_spec, std::string_view list, std::string_view name) {
  auto items = pod_spec.find(list);
  if (items == pod_spec.end() || !items->is_array()) return kNoContainer;
  for (size_t i = 0; i < items->size(); ++i) {
    if (string_member((*items)[i], "name") == name) return i;
  }
  return kNoContainer;
}

}  // namespace

size_t container_index(const Json& pod_spec, std::string_view name) {
  return index_in(pod_spec, "containers", name);
}

Json* find_container(Json* pod_spec, std::string_view name) {
  size_t index = container_index(*pod_spec, name);
  return index == kNoContainer ? nullptr : &pod_spec->find("containers")->at(index);
}

const Json* find_container(const Json& pod_spec, std::string_view name) {
  size_t index = container_index(pod_spec, name);
  return index == kNoContainer ? nullptr : &pod_spec.find("containers")->at(index);
}

bool has_container(const Json& pod_spec, std::string_view list, std::string_view name) {
  return index_in(pod_spec, list, name) != kNoContainer;
}

}  // namespace trainjob
