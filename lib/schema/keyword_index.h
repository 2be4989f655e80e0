// The keywords of one schema object, found in a single pass over its map. Checking a
// value reads them from here instead of searching the schema for each keyword at every
// node of every document.
#ifndef TRAINJOB_SCHEMA_KEYWORD_INDEX_H_
#define TRAINJOB_SCHEMA_KEYWORD_INDEX_H_

#include <cstdint>

#include "load/json.h"

namespace trainjob {

/// Schemas are read, never written back, and looked up by key all the time: the sorted
/// nlohmann::json builds and searches them several times faster than ordered_json.
using Schema = nlohmann::json;

/// Bits of SchemaKeywords::types, one per JSON Schema type name.
enum TypeBit : uint8_t {
  kTypeObject = 1,
  kTypeArray = 2,
  kTypeString = 4,
  kTypeBoolean = 8,
  kTypeNull = 16,
  kTypeNumber = 32,
  kTypeInteger = 64,
  kTypeUnknown = 128,  ///< a name JSON Schema does not define: accepts anything
};

struct SchemaKeywords {
  const Schema* ref = nullptr;
  const Schema* lazy = nullptr;  ///< a placeholder's [text id, begin, end] (schema/lazy_schema.h)
  const Schema* type = nullptr;
  uint8_t types = 0;  ///< TypeBits of `type`
  const Schema* enum_values = nullptr;
  const Schema* pattern = nullptr;
  const Schema* min_length = nullptr;
  const Schema* max_length = nullptr;
  const Schema* minimum = nullptr;
  const Schema* maximum = nullptr;
  const Schema* exclusive_minimum = nullptr;
  const Schema* exclusive_maximum = nullptr;
  const Schema* format = nullptr;
  const Schema* required = nullptr;
  const Schema* min_properties = nullptr;
  const Schema* max_properties = nullptr;
  const Schema* properties = nullptr;
  const Schema* additional_properties = nullptr;
  const Schema* items = nullptr;
  const Schema* min_items = nullptr;
  const Schema* max_items = nullptr;
  const Schema* unique_items = nullptr;
  const Schema* list_type = nullptr;
  const Schema* list_map_keys = nullptr;
  bool int_or_string = false;
  bool preserve_unknown_fields = false;
};

/// The keywords of `schema` (an object; anything else has none).
SchemaKeywords find_keywords(const Schema& schema);

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_KEYWORD_INDEX_H_
