#include "cluster/trainjob_objects.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"

namespace trainjob {
namespace {

/// The kinds `submit` makes by itself, in the order they are deleted: Jobs first (so no new
/// pods start), then PodGroups, the Service, ConfigMaps and Secrets.
std::vector<ResourceType> submitted_types() {
  return {job_type(),
          coscheduling_pod_group_type(),
          volcano_pod_group_type(),
          service_type(),
          config_map_type(),
          secret_type()};
}

/// The annotation is read from the cluster: only names that make a sane URL path are used.
bool plain_name(const std::string& text, const char* extra) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::strchr(extra, c) == nullptr)
      return false;
  }
  return true;
}

/// Adds the kinds `object` says submit applied (kSubmittedKindsAnnotation) to `types`.
void add_recorded_kinds(const Json& object, std::vector<ResourceType>* types) {
  const std::string& recorded =
      string_member_ref(member_or_empty(member_or_empty(object, "metadata"), "annotations"),
                        kSubmittedKindsAnnotation);
  size_t start = 0;
  while (start < recorded.size()) {
    size_t end = std::min(recorded.find(',', start), recorded.size());
    std::string entry = recorded.substr(start, end - start);
    start = end + 1;
    size_t slash = entry.rfind('/');
    if (slash == std::string::npos) continue;
    std::string api_version = entry.substr(0, slash);
    std::string kind = entry.substr(slash + 1);
    if (!plain_name(api_version, "./-") || !plain_name(kind, "") ||
        api_version.find("..") != std::string::npos)
      continue;
    bool known = std::any_of(types->begin(), types->end(), [&](const ResourceType& type) {
      return type.api_version == api_version && type.kind == kind;
    });
    if (!known) types->push_back(resource_type(api_version, kind));
  }
}

}  // namespace

std::vector<Json> find_trainjob_objects(KubeClient* client, const std::string& name_space,
                                        const std::string& name) {
  std::vector<Json> out;
  std::vector<ResourceType> types = submitted_types();
  // `types` grows as the objects found name more kinds; an index keeps up with it.
  for (size_t i = 0; i < types.size(); ++i) {
    ResourceType type = types[i];
    bool maybe_missing = !type.group().empty() && type.group() != "batch";  // a CRD's kind
    maybe_missing = maybe_missing || i >= submitted_types().size();
    ObjectList list =
        list_objects(client, type, name_space, submitted_selector(name), maybe_missing);
    for (Json& item : list.items) {
      item["apiVersion"] = type.api_version;  // list items may leave these out
      item["kind"] = type.kind;
      add_recorded_kinds(item, &types);
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

void delete_trainjob(KubeClient* client, const std::string& name_space, const std::string& name,
                     const std::function<void(const Json&)>& on_deleted) {
  std::vector<Json> objects = find_trainjob_objects(client, name_space, name);
  if (objects.empty()) {
    throw KubeError("trainjob \"" + name + "\" not found in namespace \"" + name_space +
                    "\" (no object carries the labels " + kTrainJobNameLabel + "=" + name +
                    " and " + kCreatedBySubmitLabel + "=" + kCreatedBySubmitValue + ")");
  }
  for (const Json& object : objects) {
    if (delete_object(client, resource_type_of(object), name_space, name_of(object)))
      on_deleted(object);
  }
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
