#include "krm/krm_annotations.h"

#include <cstdlib>
#include <string_view>

#include "model/vocabulary.h"

namespace trainjob {
namespace {

constexpr std::string_view kToolPrefixes[] = {
    kKrmConfigPrefix,
    kKrmInternalConfigPrefix,
    kKrmLegacyConfigPrefix,
    kKustomizeConfigPrefix,
};

bool is_tool_annotation(std::string_view key) {
  for (std::string_view prefix : kToolPrefixes) {
    if (key.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

/// The first of two annotations that is set.
const std::string& first_of(const Json& annotations, const char* preferred, const char* other) {
  const std::string& value = string_member_ref(annotations, preferred);
  return value.empty() ? string_member_ref(annotations, other) : value;
}

/// A decimal index, or -1 for anything else (the annotation is input like any other).
long parse_index(const std::string& text) {
  if (text.empty() || text.size() > 9) return -1;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
  }
  return std::strtol(text.c_str(), nullptr, 10);
}

}  // namespace

ItemSource item_source(const Json& item) {
  const Json& annotations = json_member(json_member(item, "metadata"), "annotations");
  ItemSource source;
  source.path = first_of(annotations, kKrmInternalPathAnnotation, kKrmPathAnnotation);
  source.index =
      parse_index(first_of(annotations, kKrmInternalIndexAnnotation, kKrmIndexAnnotation));
  return source;
}

void strip_tool_annotations(Json* object) {
  if (!object->is_object()) return;
  auto metadata = object->find("metadata");
  if (metadata == object->end() || !metadata->is_object()) return;
  auto annotations = metadata->find("annotations");
  if (annotations == metadata->end() || !annotations->is_object()) return;
  for (auto it = annotations->begin(); it != annotations->end();) {
    it = is_tool_annotation(it.key()) ? annotations->erase(it) : std::next(it);
  }
  if (annotations->empty()) metadata->erase(annotations);
}

void set_item_source(Json* object, const ItemSource& source) {
  Json& annotations = (*object)["metadata"]["annotations"];
  if (!source.path.empty()) {
    annotations[kKrmPathAnnotation] = source.path;
    annotations[kKrmInternalPathAnnotation] = source.path;
  }
  if (source.index >= 0) {
    annotations[kKrmIndexAnnotation] = std::to_string(source.index);
    annotations[kKrmInternalIndexAnnotation] = std::to_string(source.index);
  }
}

}  // namespace trainjob
