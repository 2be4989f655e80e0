#include "kube/objects.h"

#include "kube/kube_error.h"

namespace trainjob {

ApplyResult apply_object(KubeClient* client, const Json& object, const std::string& name_space,
                         bool dry_run, bool force) {
  ResourceType type = resource_type_of(object);
  std::string path = object_path(type, name_space, name_of(object)) +
                     "?fieldManager=" + kFieldManager + "&fieldValidation=Strict";
  if (dry_run) path += "&dryRun=All";
  if (force) path += "&force=true";
  ApiResponse response = client->send("PATCH", path, object.dump(), "application/apply-patch+yaml");
  ApplyResult result;
  result.status = response.status;
  if (response.ok()) {
    result.ok = true;
    result.created = response.status == 201;
    result.object = response.json();
    return result;
  }
  result.error = client->error_message(response.status, response.body);
  std::optional<ApiStatus> status = decode_status(response.body);
  if (status) {
    result.reason = status->reason;
    result.namespace_missing = response.status == 404 && status->kind == "namespaces";
    for (const StatusCause& cause : status->causes) {
      if (cause.message.find("immutable") != std::string::npos) result.immutable = true;
    }
    if (status->message.find("immutable") != std::string::npos) result.immutable = true;
  }
  return result;
}

ObjectList list_objects(KubeClient* client, const ResourceType& type, const std::string& name_space,
                        const std::string& selector, bool missing_ok) {
  std::string path = collection_path(type, name_space);
  if (!selector.empty()) path += "?labelSelector=" + selector;
  ApiResponse response = client->send("GET", path);
  if (response.status == 404 && missing_ok) return {};
  if (!response.ok())
    throw KubeError(client->error_message(response.status, response.body), response.status);
  Json list = response.json();
  ObjectList out;
  out.resource_version = string_member(member_or_empty(list, "metadata"), "resourceVersion");
  if (list.contains("items") && list["items"].is_array()) {
    for (Json& item : list["items"])
      out.items.push_back(std::move(item));
  }
  return out;
}

bool any_object(KubeClient* client, const ResourceType& type, const std::string& name_space,
                const std::string& selector) {
  std::string path = collection_path(type, name_space) + "?limit=1";
  if (!selector.empty()) path += "&labelSelector=" + selector;
  ApiResponse response = client->send("GET", path);
  if (!response.ok())
    throw KubeError(client->error_message(response.status, response.body), response.status);
  Json list = response.json();
  const Json& items = json_member(list, "items");
  return items.is_array() && !items.empty();
}

std::optional<Json> get_object(KubeClient* client, const ResourceType& type,
                               const std::string& name_space, const std::string& name) {
  ApiResponse response = client->send("GET", object_path(type, name_space, name));
  if (response.status == 404) return std::nullopt;
  if (!response.ok())
    throw KubeError(client->error_message(response.status, response.body), response.status);
  return response.json();
}

bool delete_object(KubeClient* client, const ResourceType& type, const std::string& name_space,
                   const std::string& name) {
  // Jobs orphan their pods unless told otherwise; Background is what kubectl sends.
  ApiResponse response =
      client->send("DELETE", object_path(type, name_space, name) + "?propagationPolicy=Background");
  if (response.status == 404) return false;
  if (!response.ok())
    throw KubeError(client->error_message(response.status, response.body), response.status);
  return true;
}

const Json& member_or_empty(const Json& object, const char* key) {
  static const Json empty = Json::object();
  if (!object.is_object()) return empty;
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? empty : *it;
}

std::string name_of(const Json& object) {
  return string_member(member_or_empty(object, "metadata"), "name");
}

std::string label_of(const Json& object, const char* key) {
  const Json& metadata = member_or_empty(object, "metadata");
  return string_member(member_or_empty(metadata, "labels"), key);
}

std::string display_name(const Json& object) {
  return resource_type_of(object).qualified_kind() + "/" + name_of(object);
}

}  // namespace trainjob
