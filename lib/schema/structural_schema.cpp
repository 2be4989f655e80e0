#include "schema/structural_schema.h"

#include <cctype>

#include "load/field_path.h"
#include "model/field.h"
#include "schema/value_keywords.h"
#include "util/suggest.h"

namespace trainjob {

/// A field path built only when a problem is reported: most values have none, and
/// spelling out the path of each would cost more than checking it.
struct SchemaSet::Path {
  const Path* parent = nullptr;
  std::string_view key;
  size_t index = 0;
  bool is_index = false;

  Path child(std::string_view name) const { return {this, name, 0, false}; }
  Path item(size_t i) const { return {this, {}, i, true}; }
  std::string str() const {
    if (parent == nullptr) return std::string();
    return is_index ? field_index(parent->str(), index) : field_child(parent->str(), key);
  }
};

struct SchemaSet::Context {
  std::vector<SchemaProblem> problems;
  void add(const Path& path, const std::vector<std::string>& messages) {
    if (messages.empty()) return;
    std::string where = path.str();
    for (const std::string& message : messages)
      problems.push_back({where, message, false});
  }
};

namespace {

std::string unknown_field_message(const std::string& key, const Schema* properties) {
  std::string message = "unknown field \"" + key + "\"";
  if (properties == nullptr) return message;
  std::vector<std::string_view> names;
  for (const auto& entry : properties->items())
    names.push_back(entry.key());
  std::string hint = closest_match(key, names);
  return hint.empty() ? message : message + "; did you mean \"" + hint + "\"?";
}

/// True when `value` has a key the schema does not know whose closest known name is `name`.
bool misspelt_here(const Json& value, const Schema* properties, const std::string& name) {
  if (properties == nullptr || !properties->is_object()) return false;
  std::vector<std::string_view> names;
  for (const auto& entry : properties->items())
    names.push_back(entry.key());
  for (const auto& entry : value.items()) {
    if (!properties->contains(entry.key()) && closest_match(entry.key(), names) == name) {
      return true;
    }
  }
  return false;
}

}  // namespace

void SchemaSet::add(const std::string& name, Schema schema) {
  auto existing = schemas_.find(name);
  if (existing != schemas_.end()) {
    // The old schema's objects are about to go: forget them, and prepare the rest again.
    index_.clear();
    expanded_.clear();
    existing->second = std::move(schema);
    for (const auto& entry : schemas_)
      prepare(entry.second);
    return;
  }
  prepare(schemas_.emplace(name, std::move(schema)).first->second);
}

void SchemaSet::index_keywords(const Schema& schema) const {
  if (!schema.is_object()) return;
  const SchemaKeywords& keywords = index_.emplace(&schema, find_keywords(schema)).first->second;
  // Only the places the checker reads a subschema from; enum values, defaults and the
  // `properties` maps themselves are not schemas.
  if (keywords.properties != nullptr && keywords.properties->is_object()) {
    for (const Schema& property : *keywords.properties)
      index_keywords(property);
  }
  if (keywords.additional_properties != nullptr) index_keywords(*keywords.additional_properties);
  if (keywords.items != nullptr) index_keywords(*keywords.items);
}

const SchemaKeywords& SchemaSet::keywords_of(const Schema& schema, SchemaKeywords* scratch) const {
  auto it = index_.find(&schema);
  if (it != index_.end()) return it->second;
  *scratch = find_keywords(schema);
  return *scratch;
}

bool SchemaSet::has(std::string_view name) const {
  return schemas_.find(name) != schemas_.end();
}

std::vector<SchemaProblem> SchemaSet::validate(const Json& value, std::string_view name) const {
  return validate_against(value, schemas_.find(name)->second);
}

std::vector<SchemaProblem> SchemaSet::validate_against(const Json& value,
                                                       const Schema& schema) const {
  Context context;
  check(value, schema, Path{}, &context);
  return std::move(context.problems);
}

const Schema& SchemaSet::resolve(const Schema& schema) const {
  SchemaKeywords scratch;
  const SchemaKeywords& keywords = keywords_of(schema, &scratch);
  if (keywords.lazy != nullptr) return resolve(expand(schema));
  const Schema* ref = keywords.ref;
  if (ref == nullptr || !ref->is_string()) return schema;
  auto target = schemas_.find(ref->get_ref<const std::string&>());
  return target == schemas_.end() ? schema : target->second;
}

Schema SchemaSet::parse_lazily(std::string_view text) {
  lazy_texts_.emplace_back(text);
  return lazy_texts_.back().build(lazy_texts_.size() - 1);
}

const Schema& SchemaSet::expand(const Schema& placeholder) const {
  auto it = expanded_.find(&placeholder);
  if (it == expanded_.end()) {
    size_t id = placeholder.at(kLazyKeyword).at(0).get<size_t>();
    it = expanded_.emplace(&placeholder, lazy_texts_.at(id).build(placeholder)).first;
    index_keywords(it->second);
  }
  return it->second;
}

void SchemaSet::check(const Json& value, const Schema& raw_schema, const Path& path,
                      Context* c) const {
  const Schema& resolved = resolve(raw_schema);
  if (!resolved.is_object()) {
    // JSON Schema's boolean schemas: true takes anything, false nothing.
    if (resolved.is_boolean() && !resolved.get<bool>()) c->add(path, {"no value is allowed here"});
    return;
  }
  SchemaKeywords scratch;
  const SchemaKeywords& schema = keywords_of(resolved, &scratch);
  std::vector<std::string> messages;
  // Kubernetes drops a null field before validation (it reads as absent), so only plain
  // JSON Schema has anything to say about nulls.
  if (value.is_null() && !options_.json_schema_semantics) return;
  if (schema.int_or_string) {
    bool number_ok = options_.built_in_types ? value.is_number() : value.is_number_integer();
    if (!number_ok && !value.is_string()) {
      std::string hint =
          value.is_number() ? " (write it as a string: \"" + value.dump() + "\")" : "";
      c->add(path, {"expected an integer or a string, found " + describe_value(value) + hint});
    }
    check_value_keywords(value, schema, &messages);
    c->add(path, messages);
    return;
  }
  if (!check_type(value, schema, options_, &messages)) {
    c->add(path, messages);
    return;
  }
  check_value_keywords(value, schema, &messages);
  c->add(path, messages);
  if (value.is_object()) check_object(value, schema, path, c);
  if (value.is_array()) check_array(value, schema, path, c);
}

void SchemaSet::check_object(const Json& value, const SchemaKeywords& schema, const Path& path,
                             Context* c) const {
  if (const Schema* required = schema.required; required != nullptr && required->is_array()) {
    for (const Schema& name : *required) {
      if (!name.is_string() || value.contains(name.get_ref<const std::string&>())) continue;
      // `runtimeref:` is reported as an unknown field that meant runtimeRef; saying that
      // runtimeRef is missing as well would only repeat it.
      if (misspelt_here(value, schema.properties, name.get<std::string>())) continue;
      c->add(path.child(name.get_ref<const std::string&>()), {"required field is missing"});
    }
  }
  auto count = static_cast<double>(value.size());
  const Schema* min = schema.min_properties;
  if (min != nullptr && min->is_number() && count < min->get<double>()) {
    c->add(path,
           {"expected at least " + min->dump() + " fields, found " + Json(value.size()).dump()});
  }
  const Schema* max = schema.max_properties;
  if (max != nullptr && max->is_number() && count > max->get<double>()) {
    c->add(path,
           {"expected at most " + max->dump() + " fields, found " + Json(value.size()).dump()});
  }
  const Schema* known =
      schema.properties != nullptr && schema.properties->is_object() ? schema.properties : nullptr;
  const Schema* additional = schema.additional_properties;
  bool closed = additional != nullptr && additional->is_boolean() && !additional->get<bool>();
  if (!options_.json_schema_semantics && known != nullptr) {
    closed = closed || !schema.preserve_unknown_fields;
  }
  for (auto entry = value.begin(); entry != value.end(); ++entry) {
    const std::string& key = entry.key();
    Path child = path.child(key);
    auto property = known != nullptr ? known->find(key) : Schema::const_iterator();
    if (known != nullptr && property != known->end()) {
      check(*entry, *property, child, c);
    } else if (additional != nullptr && additional->is_object()) {
      check(*entry, *additional, child, c);
    } else if (closed) {
      c->problems.push_back({child.str(), unknown_field_message(key, known), true});
    }
  }
}

void SchemaSet::check_array(const Json& value, const SchemaKeywords& schema, const Path& path,
                            Context* c) const {
  std::vector<std::string> messages;
  check_list_keywords(value, schema, &messages);
  c->add(path, messages);
  const Schema* items = schema.items;
  if (items == nullptr || items->is_array()) return;  // tuple form: not supported
  for (size_t i = 0; i < value.size(); ++i)
    check(value[i], *items, path.item(i), c);
}

std::string schema_name_for(std::string_view api_version, std::string_view kind) {
  std::string name;
  for (char c : api_version)
    name += c == '/' ? '-' : c;
  name += '-';
  for (char c : kind)
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace trainjob
