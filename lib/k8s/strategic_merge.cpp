#include "k8s/strategic_merge.h"

namespace trainjob {
namespace {

/// patchMergeKey tags of k8s.io/api/core/v1 for the lists a pod template can hold.
struct MergeKey {
  std::string_view field;
  std::string_view key;
};
constexpr MergeKey kMergeKeys[] = {
    {"containers", "name"},
    {"initContainers", "name"},
    {"ephemeralContainers", "name"},
    {"env", "name"},
    {"volumeMounts", "mountPath"},
    {"volumeDevices", "devicePath"},
    {"ports", "containerPort"},
    {"volumes", "name"},
    {"imagePullSecrets", "name"},
    {"schedulingGates", "name"},
    {"hostAliases", "ip"},
    {"resourceClaims", "name"},
    {"topologySpreadConstraints", "topologyKey"},
};

Json* find_item(Json* list, std::string_view key, const Json& value) {
  for (Json& item : *list) {
    if (item.is_object()) {
      auto it = item.find(key);
      if (it != item.end() && *it == value) return &item;
    }
  }
  return nullptr;
}

void merge_list(Json* target, const Json& patch, std::string_view key) {
  if (!target->is_array()) *target = Json::array();
  for (const Json& item : patch) {
    const Json* id = item.is_object() && item.contains(key) ? &item[std::string(key)] : nullptr;
    Json* existing = id != nullptr ? find_item(target, key, *id) : nullptr;
    if (existing != nullptr) {
      strategic_merge(existing, item);
    } else {
      target->push_back(item);
    }
  }
}

}  // namespace

std::string_view patch_merge_key(std::string_view list_field) {
  for (const MergeKey& entry : kMergeKeys) {
    if (entry.field == list_field) return entry.key;
  }
  return {};
}

void strategic_merge(Json* target, const Json& patch) {
  if (!patch.is_object() || !target->is_object()) {
    if (!patch.is_null()) *target = patch;
    return;
  }
  for (const auto& entry : patch.items()) {
    const Json& value = entry.value();
    if (value.is_null()) continue;
    Json& slot = (*target)[entry.key()];
    std::string_view key = patch_merge_key(entry.key());
    if (value.is_array() && !key.empty()) {
      merge_list(&slot, value, key);
    } else if (value.is_object() && slot.is_object()) {
      strategic_merge(&slot, value);
    } else {
      slot = value;
    }
  }
}

}  // namespace trainjob
