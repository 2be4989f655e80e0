#include "schema/keyword_index.h"

#include <string_view>

#include "schema/lazy_schema.h"

namespace trainjob {
namespace {

struct KeywordSlot {
  std::string_view name;
  const Schema* SchemaKeywords::*member;
};

constexpr KeywordSlot kSlots[] = {
    {"$ref", &SchemaKeywords::ref},
    {kLazyKeyword, &SchemaKeywords::lazy},
    {"type", &SchemaKeywords::type},
    {"enum", &SchemaKeywords::enum_values},
    {"pattern", &SchemaKeywords::pattern},
    {"minLength", &SchemaKeywords::min_length},
    {"maxLength", &SchemaKeywords::max_length},
    {"minimum", &SchemaKeywords::minimum},
    {"maximum", &SchemaKeywords::maximum},
    {"exclusiveMinimum", &SchemaKeywords::exclusive_minimum},
    {"exclusiveMaximum", &SchemaKeywords::exclusive_maximum},
    {"format", &SchemaKeywords::format},
    {"required", &SchemaKeywords::required},
    {"minProperties", &SchemaKeywords::min_properties},
    {"maxProperties", &SchemaKeywords::max_properties},
    {"properties", &SchemaKeywords::properties},
    {"additionalProperties", &SchemaKeywords::additional_properties},
    {"items", &SchemaKeywords::items},
    {"minItems", &SchemaKeywords::min_items},
    {"maxItems", &SchemaKeywords::max_items},
    {"uniqueItems", &SchemaKeywords::unique_items},
    {"x-kubernetes-list-type", &SchemaKeywords::list_type},
    {"x-kubernetes-list-map-keys", &SchemaKeywords::list_map_keys},
};

uint8_t type_bit(std::string_view name) {
  if (name == "object") return kTypeObject;
  if (name == "array") return kTypeArray;
  if (name == "string") return kTypeString;
  if (name == "boolean") return kTypeBoolean;
  if (name == "null") return kTypeNull;
  if (name == "number") return kTypeNumber;
  if (name == "integer") return kTypeInteger;
  return kTypeUnknown;
}

uint8_t type_bits(const Schema& type) {
  if (type.is_string()) return type_bit(type.get_ref<const std::string&>());
  uint8_t bits = 0;
  if (type.is_array()) {
    for (const Schema& name : type) {
      bits |= name.is_string() ? type_bit(name.get_ref<const std::string&>()) : 0;
    }
  }
  return bits;
}

bool is_true(const Schema& value) {
  return value.is_boolean() && value.get<bool>();
}

}  // namespace

SchemaKeywords find_keywords(const Schema& schema) {
  SchemaKeywords keywords;
  if (!schema.is_object()) return keywords;
  for (auto it = schema.begin(); it != schema.end(); ++it) {
    std::string_view name = it.key();
    if (name == "x-kubernetes-int-or-string") keywords.int_or_string = is_true(*it);
    if (name == "x-kubernetes-preserve-unknown-fields") {
      keywords.preserve_unknown_fields = is_true(*it);
    }
    for (const KeywordSlot& slot : kSlots) {
      if (slot.name == name) keywords.*slot.member = &*it;
    }
  }
  if (keywords.type != nullptr) keywords.types = type_bits(*keywords.type);
  return keywords;
}

}  // namespace trainjob
