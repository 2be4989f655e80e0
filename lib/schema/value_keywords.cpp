#include "schema/value_keywords.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>

#include "k8s/quantity.h"
#include "model/field.h"

namespace trainjob {
namespace {

bool is_integral(const Json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  double number = value.get<double>();
  return std::isfinite(number) && std::floor(number) == number;
}

/// Whether `value` has one of the types in `bits`. Kubernetes decodes integers with Go's
/// encoding/json, which refuses `1.0`; JSON Schema counts a number with no fraction as an
/// integer.
bool has_type(const Json& value, uint8_t bits, const SchemaOptions& options) {
  if ((bits & kTypeUnknown) != 0) return true;
  switch (value.type()) {
    case Json::value_t::object:
      return (bits & kTypeObject) != 0;
    case Json::value_t::array:
      return (bits & kTypeArray) != 0;
    case Json::value_t::string:
      return (bits & kTypeString) != 0;
    case Json::value_t::boolean:
      return (bits & kTypeBoolean) != 0;
    case Json::value_t::null:
      return (bits & kTypeNull) != 0;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return (bits & (kTypeNumber | kTypeInteger)) != 0;
    case Json::value_t::number_float:
      if ((bits & kTypeNumber) != 0) return true;
      return (bits & kTypeInteger) != 0 && options.json_schema_semantics && is_integral(value);
    default:
      return false;
  }
}

size_t code_points(const std::string& text) {
  size_t count = 0;
  for (char c : text)
    count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

/// Patterns are compiled once; one that std::regex cannot read is not checked.
const std::regex* compiled(const std::string& pattern) {
  // One cache per thread: documents are checked on several threads at once.
  thread_local std::map<std::string, std::optional<std::regex>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    std::optional<std::regex> regex;
    try {
      regex.emplace(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
    }
    it = cache.emplace(pattern, std::move(regex)).first;
  }
  return it->second ? &*it->second : nullptr;
}

/// The pattern Kubernetes puts on every resource quantity. std::regex takes longer to
/// compile it than the whole rest of a render, and our quantity parser accepts exactly
/// the same strings, so quantities are checked with that instead.
constexpr const char* kQuantityPattern =
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+("
    "\\.[0-9]*)?)|(\\.[0-9]+))))?$";

bool matches(const std::string& text, const std::string& pattern, std::string* message) {
  if (pattern == kQuantityPattern) {
    std::string error;
    if (parse_quantity(text, &error)) return true;
    *message = error + ", found \"" + text + "\"";
    return false;
  }
  const std::regex* regex = compiled(pattern);
  if (regex == nullptr || std::regex_search(text, *regex)) return true;
  *message = "\"" + text + "\" does not match the pattern " + pattern;
  return false;
}

void check_string(const std::string& text, const SchemaKeywords& schema,
                  std::vector<std::string>* out) {
  if (const Schema* pattern = schema.pattern; pattern && pattern->is_string()) {
    std::string message;
    if (!matches(text, pattern->get<std::string>(), &message)) out->push_back(message);
  }
  size_t length = code_points(text);
  if (const Schema* min = schema.min_length;
      min && min->is_number() && length < min->get<double>()) {
    out->push_back("expected at least " + min->dump() + " characters, found " +
                   std::to_string(length));
  }
  if (const Schema* max = schema.max_length;
      max && max->is_number() && length > max->get<double>()) {
    out->push_back("expected at most " + max->dump() + " characters, found " +
                   std::to_string(length));
  }
}

/// `minimum` with OpenAPI's boolean exclusiveMinimum, or a numeric exclusiveMinimum (newer
/// JSON Schema); likewise for the maximum.
void check_bound(const Json& value, const SchemaKeywords& schema, bool lower,
                 std::vector<std::string>* out) {
  double number = value.get<double>();
  const Schema* bound = lower ? schema.minimum : schema.maximum;
  const Schema* exclusive = lower ? schema.exclusive_minimum : schema.exclusive_maximum;
  auto fails = [&](double limit, bool strict) {
    return lower ? (strict ? number <= limit : number < limit)
                 : (strict ? number >= limit : number > limit);
  };
  auto say = [&](const Schema& limit, bool strict) {
    const char* relation = lower ? (strict ? ">" : "≥") : (strict ? "<" : "≤");
    out->push_back(std::string("expected a value ") + relation + " " + limit.dump() + ", found " +
                   value.dump());
  };
  bool strict = exclusive != nullptr && exclusive->is_boolean() && exclusive->get<bool>();
  if (bound != nullptr && bound->is_number() && fails(bound->get<double>(), strict)) {
    say(*bound, strict);
  }
  if (exclusive != nullptr && exclusive->is_number() && fails(exclusive->get<double>(), true)) {
    say(*exclusive, true);
  }
}

void check_format(const Json& value, const SchemaKeywords& schema, std::vector<std::string>* out) {
  const Schema* format = schema.format;
  if (format == nullptr || !value.is_number_integer()) return;
  bool int32 = *format == "int32";
  if (!int32 && *format != "int64") return;
  if (value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX) {
    out->push_back("expected a 64-bit integer, found " + value.dump());
  } else if (int32 && (value.get<int64_t>() < INT32_MIN || value.get<int64_t>() > INT32_MAX)) {
    out->push_back("expected a 32-bit integer, found " + value.dump());
  }
}

bool unique_by(const Json& items, const std::vector<std::string>& keys, std::string* repeated) {
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      bool same = true;
      for (const std::string& key : keys) {
        bool both = items[i].is_object() && items[j].is_object();
        same = same && both && items[i].value(key, Json()) == items[j].value(key, Json());
      }
      if (keys.empty()) same = items[i] == items[j];
      if (same) {
        *repeated = "items " + std::to_string(j) + " and " + std::to_string(i);
        return false;
      }
    }
  }
  return true;
}

}  // namespace

std::string type_phrase(const std::string& type) {
  if (type == "object") return "a mapping";
  if (type == "array") return "a list";
  if (type == "integer") return "an integer";
  if (type == "null") return "null";
  return "a " + type;
}

bool check_type(const Json& value, const SchemaKeywords& schema, const SchemaOptions& options,
                std::vector<std::string>* messages) {
  if (schema.type == nullptr || has_type(value, schema.types, options)) return true;
  std::string expected;
  auto add = [&](const Schema& name) {
    if (!name.is_string()) return;
    expected += (expected.empty() ? "" : " or ") + type_phrase(name.get<std::string>());
  };
  if (schema.type->is_array()) {
    for (const Schema& name : *schema.type)
      add(name);
  } else {
    add(*schema.type);
  }
  messages->push_back("expected " + expected + ", found " + describe_value(value));
  return false;
}

void check_value_keywords(const Json& value, const SchemaKeywords& schema,
                          std::vector<std::string>* out) {
  if (const Schema* allowed = schema.enum_values; allowed && allowed->is_array()) {
    bool found = false;
    const Schema plain(value);  // enum members are compared in the schema's own type
    for (const Schema& candidate : *allowed)
      found = found || candidate == plain;
    if (!found) {
      out->push_back("expected one of " + allowed->dump() + ", found " + describe_value(value));
    }
  }
  if (value.is_string()) check_string(value.get_ref<const std::string&>(), schema, out);
  if (value.is_number()) {
    check_bound(value, schema, true, out);
    check_bound(value, schema, false, out);
  }
  check_format(value, schema, out);
}

void check_list_keywords(const Json& value, const SchemaKeywords& schema,
                         std::vector<std::string>* out) {
  const Schema* min = schema.min_items;
  if (min != nullptr && min->is_number() && value.size() < min->get<double>()) {
    out->push_back("expected at least " + min->dump() + " items, found " +
                   std::to_string(value.size()));
  }
  const Schema* max = schema.max_items;
  if (max != nullptr && max->is_number() && value.size() > max->get<double>()) {
    out->push_back("expected at most " + max->dump() + " items, found " +
                   std::to_string(value.size()));
  }
  std::string repeated;
  const Schema* unique = schema.unique_items;
  const Schema* list_type = schema.list_type;
  bool set = (unique != nullptr && *unique == true) || (list_type && *list_type == "set");
  if (set && !unique_by(value, {}, &repeated)) out->push_back("items must be unique: " + repeated);
  const Schema* map_keys = schema.list_map_keys;
  if (list_type != nullptr && *list_type == "map" && map_keys != nullptr && map_keys->is_array()) {
    std::vector<std::string> keys;
    for (const Schema& key : *map_keys)
      keys.push_back(key.get<std::string>());
    if (!unique_by(value, keys, &repeated)) {
      out->push_back("two items have the same " + map_keys->dump() + ": " + repeated);
    }
  }
}

}  // namespace trainjob
