#include "kube/trainjob_objects.h"

#include "kube/objects.h"
#include "kube/resources.h"

namespace trainjob {
namespace {

std::vector<const ResourceType*> owned_types() {
  return {&job_type(), &coscheduling_pod_group_type(), &volcano_pod_group_type(), &service_type(),
          &config_map_type()};
}

}  // namespace

std::vector<Json> find_trainjob_objects(KubeClient* client, const std::string& name_space,
                                        const std::string& name) {
  std::vector<Json> out;
  for (const ResourceType* type : owned_types()) {
    bool is_crd = !type->group().empty() && type->group() != "batch";
    ObjectList list = list_objects(client, *type, name_space, trainjob_selector(name), is_crd);
    for (Json& item : list.items) {
      item["apiVersion"] = type->api_version;  // list items may leave these out
      item["kind"] = type->kind;
      out.push_back(std::move(item));
    }
  }
  return out;
}

std::vector<std::string> delete_objects(KubeClient* client, const std::string& name_space,
                                        const std::vector<Json>& objects) {
  std::vector<std::string> deleted;
  for (const Json& object : objects) {
    if (delete_object(client, resource_type_of(object), name_space, name_of(object)))
      deleted.push_back(display_name(object));
  }
  return deleted;
}

bool wait_until_gone(KubeClient* client, const Clock& clock, const std::string& name_space,
                     const std::string& name, double timeout_seconds) {
  double deadline = clock.now() + timeout_seconds;
  double delay = 0.1;
  while (true) {
    bool gone = find_trainjob_objects(client, name_space, name).empty() &&
                list_objects(client, pod_type(), name_space, trainjob_selector(name)).items.empty();
    if (gone) return true;
    if (timeout_seconds > 0 && clock.now() >= deadline) return false;
    clock.sleep(delay);
    delay = std::min(delay * 2, 1.0);
  }
}

}  // namespace trainjob
