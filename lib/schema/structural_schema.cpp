#include "schema/structural_schema.h"

#include <cctype>

#include "load/field_path.h"
#include "model/field.h"
#include "model/suggest.h"
#include "schema/keywords.h"

namespace trainjob {

struct SchemaSet::Context {
  std::vector<SchemaProblem> problems;
  void add(const std::string& path, const std::vector<std::string>& messages) {
    for (const std::string& message : messages)
      problems.push_back({path, message, false});
  }
};

namespace {

bool flag(const Schema& schema, const char* key) {
  auto it = schema.find(key);
  return it != schema.end() && it->is_boolean() && it->get<bool>();
}

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
bool misspelt_here(const Json& value, const Schema& schema, const std::string& name) {
  auto properties = schema.find("properties");
  if (properties == schema.end() || !properties->is_object()) return false;
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
  schemas_[name] = std::move(schema);
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
  check(value, schema, "", &context);
  return std::move(context.problems);
}

const Schema& SchemaSet::resolve(const Schema& schema) const {
  auto ref = schema.find("$ref");
  if (ref == schema.end() || !ref->is_string()) return schema;
  auto target = schemas_.find(ref->get<std::string>());
  return target == schemas_.end() ? schema : target->second;
}

void SchemaSet::check(const Json& value, const Schema& raw_schema, const std::string& path,
                      Context* c) const {
  const Schema& schema = resolve(raw_schema);
  if (!schema.is_object()) {
    // JSON Schema's boolean schemas: true takes anything, false nothing.
    if (schema.is_boolean() && !schema.get<bool>()) c->add(path, {"no value is allowed here"});
    return;
  }
  std::vector<std::string> messages;
  // Kubernetes drops a null field before validation (it reads as absent), so only plain
  // JSON Schema has anything to say about nulls.
  if (value.is_null() && !options_.json_schema_semantics) return;
  if (flag(schema, "x-kubernetes-int-or-string")) {
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

void SchemaSet::check_object(const Json& value, const Schema& schema, const std::string& path,
                             Context* c) const {
  if (auto required = schema.find("required"); required != schema.end() && required->is_array()) {
    for (const Schema& name : *required) {
      if (!name.is_string() || value.contains(name.get<std::string>())) continue;
      // `runtimeref:` is reported as an unknown field that meant runtimeRef; saying that
      // runtimeRef is missing as well would only repeat it.
      if (misspelt_here(value, schema, name.get<std::string>())) continue;
      c->add(field_child(path, name.get<std::string>()), {"required field is missing"});
    }
  }
  auto count = static_cast<double>(value.size());
  auto min = schema.find("minProperties");
  if (min != schema.end() && min->is_number() && count < min->get<double>()) {
    c->add(path,
           {"expected at least " + min->dump() + " fields, found " + Json(value.size()).dump()});
  }
  auto max = schema.find("maxProperties");
  if (max != schema.end() && max->is_number() && count > max->get<double>()) {
    c->add(path,
           {"expected at most " + max->dump() + " fields, found " + Json(value.size()).dump()});
  }
  auto properties = schema.find("properties");
  const Schema* known =
      properties != schema.end() && properties->is_object() ? &*properties : nullptr;
  auto additional = schema.find("additionalProperties");
  bool closed = additional != schema.end() && additional->is_boolean() && !additional->get<bool>();
  if (!options_.json_schema_semantics && known != nullptr) {
    closed = closed || !flag(schema, "x-kubernetes-preserve-unknown-fields");
  }
  for (const auto& entry : value.items()) {
    std::string child = field_child(path, entry.key());
    if (known != nullptr && known->contains(entry.key())) {
      check(entry.value(), (*known)[entry.key()], child, c);
    } else if (additional != schema.end() && additional->is_object()) {
      check(entry.value(), *additional, child, c);
    } else if (closed) {
      c->problems.push_back({child, unknown_field_message(entry.key(), known), true});
    }
  }
}

void SchemaSet::check_array(const Json& value, const Schema& schema, const std::string& path,
                            Context* c) const {
  std::vector<std::string> messages;
  check_list_keywords(value, schema, &messages);
  c->add(path, messages);
  auto items = schema.find("items");
  if (items == schema.end() || items->is_array()) return;  // tuple form: not supported
  for (size_t i = 0; i < value.size(); ++i)
    check(value[i], *items, field_index(path, i), c);
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
