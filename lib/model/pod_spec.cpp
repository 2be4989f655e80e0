#include "model/pod_spec.h"

namespace trainjob {

size_t container_index(const Json& pod_spec, std::string_view name) {
  auto list = pod_spec.find("containers");
  if (list == pod_spec.end() || !list->is_array()) return kNoContainer;
  for (size_t i = 0; i < list->size(); ++i) {
    if (string_member((*list)[i], "name") == name) return i;
  }
  return kNoContainer;
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
  auto it = pod_spec.find(list);
  if (it == pod_spec.end() || !it->is_array()) return false;
  for (const Json& container : *it) {
    if (string_member(container, "name") == name) return true;
  }
  return false;
}

}  // namespace trainjob
