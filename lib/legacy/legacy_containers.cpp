#include "legacy/legacy_containers.h"

#include "k8s/container_rules.h"
#include "k8s/image_reference.h"
#include "load/field_path.h"

namespace trainjob {
namespace {

bool legacy_image_ok(const FieldReader& reader, const std::string& path, const Json& container) {
  const std::string& image = string_member_ref(container, "image");
  std::string message =
      image.empty() ? "expected the container's image" : image_reference_error(image);
  if (message.empty()) return true;
  reader.error(path + ".image", message);
  return false;
}

bool legacy_requests_ok(const FieldReader& reader, const std::string& path, const std::string& list,
                        size_t index, const Json& container) {
  bool ok = true;
  for (const RefusedRequest& refused : refused_requests(json_member(container, "resources"))) {
    std::string job_field =
        "spec.template.spec." + list + "[" + std::to_string(index) + "].resources";
    reader.error(field_child(path + ".resources.requests", refused.resource),
                 refused_request_message(refused, "", job_field));
    ok = false;
  }
  return ok;
}

}  // namespace

bool check_legacy_containers(const FieldReader& reader, const std::string& template_path,
                             const Json& pod_template) {
  bool ok = true;
  for (const char* list : {"containers", "initContainers"}) {
    const Json& containers = json_member(json_member(pod_template, "spec"), list);
    if (!containers.is_array()) continue;
    std::string list_path = template_path + ".spec." + list;
    for (size_t i = 0; i < containers.size(); ++i) {
      std::string path = field_index(list_path, i);
      ok = legacy_image_ok(reader, path, containers[i]) && ok;
      ok = legacy_requests_ok(reader, path, list, i, containers[i]) && ok;
    }
  }
  return ok;
}

}  // namespace trainjob
