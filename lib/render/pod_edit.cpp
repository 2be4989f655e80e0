#include "render/pod_edit.h"

#include <algorithm>
#include <set>

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

void place_policy_env(Json* container, const Json& policy_env, const Json& trainer_env) {
  std::set<std::string> from_trainjob;
  if (trainer_env.is_array()) {
    for (const Json& var : trainer_env)
      if (var.is_object()) from_trainjob.insert(var.value("name", ""));
  }
  Json& env = list_field(container, "env");
  auto position = [&env](const std::string& name) {
    return std::find_if(env.begin(), env.end(),
                        [&name](const Json& var) { return var.value("name", "") == name; });
  };
  Json block = Json::array();
  for (const Json& var : policy_env) {
    std::string name = var.value("name", "");
    auto existing = position(name);
    if (existing == env.end()) {
      block.push_back(var);
    } else if (from_trainjob.count(name) != 0) {
      block.push_back(*existing);  // the TrainJob's value, where upstream's upsert leaves it
      env.erase(existing);
    }  // else the runtime's own variable keeps its place
  }
  auto first_added = std::find_if(env.begin(), env.end(), [&from_trainjob](const Json& var) {
    return from_trainjob.count(var.value("name", "")) != 0;
  });
  env.insert(first_added, block.begin(), block.end());
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
