// The one JSON value type the pipeline passes around.
#ifndef TRAINJOB_LOAD_JSON_H_
#define TRAINJOB_LOAD_JSON_H_

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace trainjob {

/// Keys keep their insertion order, so documents that pass through `render`
/// unchanged come out in the order the user wrote them.
using Json = nlohmann::ordered_json;

/// `object[key]` when `object` is a mapping holding a string there, else `fallback`.
/// Unlike Json::value() it never throws, whatever the input put there.
inline std::string string_member(const Json& object, const char* key,
                                 const std::string& fallback = "") {
  if (!object.is_object()) return fallback;
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

/// `object[key]` without a copy, or null when `object` is no mapping or lacks the key: for
/// walking input whose shape nothing has checked yet.
inline const Json& json_member(const Json& object, const char* key) {
  static const Json null_value;
  if (!object.is_object()) return null_value;
  auto it = object.find(key);
  return it != object.end() ? *it : null_value;
}

/// json_member down a path of keys: `json_path(job, {"spec", "template", "spec"})`.
inline const Json& json_path(const Json& object, std::initializer_list<const char*> keys) {
  const Json* value = &object;
  for (const char* key : keys)
    value = &json_member(*value, key);
  return *value;
}

/// string_member without a copy: the string in `object`, or an empty one.
inline const std::string& string_member_ref(const Json& object, const char* key) {
  static const std::string empty;
  if (!object.is_object()) return empty;
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get_ref<const std::string&>() : empty;
}

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_JSON_H_
