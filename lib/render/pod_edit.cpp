#include "render/pod_edit.h"

namespace trainjob {
namespace {

Json& list_field(Json* object, std::string_view list) {
  Json& slot = (*object)[std::string(list)];
  if (!slot.is_array()) slot = Json::array();
  return slot;
}

bool same_field(const Json& a, const Json& b, const char* key) {
  auto ia = a.find(key);
  auto ib = b.find(key);
  return ia != a.end() && ib != b.end() && *ia == *ib;
}

}  // namespace

void upsert_by_key(Json* object, std::string_view list, const Json& item, std::string_view key) {
  Json& items = list_field(object, list);
  std::string key_name(key);
  for (Json& existing : items) {
    if (existing.is_object() && same_field(existing, item, key_name.c_str())) {
      existing = item;
      return;
    }
  }
  items.push_back(item);
}

void upsert_env(Json* container, const Json& env_var) {
  upsert_by_key(container, "env", env_var, "name");
}

void upsert_env_value(Json* container, const std::string& name, const std::string& value) {
  upsert_env(container, Json{{"name", name}, {"value", value}});
}

void upsert_port(Json* container, const Json& port) {
  Json& ports = list_field(container, "ports");
  for (Json& existing : ports) {
    if (same_field(existing, port, "containerPort") || same_field(existing, port, "name")) {
      existing = port;
      return;
    }
  }
  ports.push_back(port);
}

void merge_string_map(Json* object, std::string_view field, const Json& values) {
  if (!values.is_object() || values.empty()) return;
  Json& slot = (*object)[std::string(field)];
  if (!slot.is_object()) slot = Json::object();
  for (const auto& entry : values.items())
    slot[entry.key()] = entry.value();
}

}  // namespace trainjob
