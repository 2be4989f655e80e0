#include "schema/structural_schema.h"

#include <algorithm>
#include <cctype>

#include "load/field_path.h"
#include "model/field.h"

namespace trainjob {
namespace {

bool has_type(const Json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  return true;
}

bool flag(const Json& schema, const char* key) {
  auto it = schema.find(key);
  return it != schema.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace

void SchemaSet::add(const std::string& name, Json schema) {
  schemas_[name] = std::move(schema);
}

bool SchemaSet::has(std::string_view name) const {
  return schemas_.find(name) != schemas_.end();
}

std::vector<SchemaProblem> SchemaSet::validate(const Json& value, std::string_view name) const {
  std::vector<SchemaProblem> problems;
  check(value, schemas_.find(name)->second, "", &problems);
  return problems;
}

const Json& SchemaSet::resolve(const Json& schema) const {
  auto ref = schema.find("$ref");
  if (ref == schema.end()) return schema;
  return schemas_.find(ref->get<std::string>())->second;
}

void SchemaSet::check(const Json& value, const Json& raw_schema, const std::string& path,
                      std::vector<SchemaProblem>* problems) const {
  const Json& schema = resolve(raw_schema);
  if (value.is_null()) {
    if (!flag(schema, "nullable")) problems->push_back({path, "null is not allowed here"});
    return;
  }
  if (flag(schema, "x-kubernetes-int-or-string")) {
    bool number_ok = built_in_types_ ? value.is_number() : value.is_number_integer();
    if (!number_ok && !value.is_string()) {
      problems->push_back(
          {path, "expected an integer or a string, found " + describe_value(value)});
    }
    return;
  }
  auto type = schema.find("type");
  if (type != schema.end() && !has_type(value, type->get<std::string>())) {
    problems->push_back(
        {path, "expected " + type->get<std::string>() + ", found " + describe_value(value)});
    return;
  }
  auto allowed = schema.find("enum");
  if (allowed != schema.end() &&
      std::find(allowed->begin(), allowed->end(), value) == allowed->end()) {
    problems->push_back(
        {path, "expected one of " + allowed->dump() + ", found " + describe_value(value)});
  }
  if (value.is_object()) check_object(value, schema, path, problems);
  auto items = schema.find("items");
  if (value.is_array() && items != schema.end()) {
    for (size_t i = 0; i < value.size(); ++i)
      check(value[i], *items, field_index(path, i), problems);
  }
}

void SchemaSet::check_object(const Json& value, const Json& schema, const std::string& path,
                             std::vector<SchemaProblem>* problems) const {
  auto required = schema.find("required");
  if (required != schema.end()) {
    for (const Json& name : *required) {
      if (!value.contains(name.get<std::string>())) {
        problems->push_back(
            {field_child(path, name.get<std::string>()), "required field is missing"});
      }
    }
  }
  auto properties = schema.find("properties");
  auto additional = schema.find("additionalProperties");
  bool open = flag(schema, "x-kubernetes-preserve-unknown-fields");
  for (const auto& entry : value.items()) {
    std::string child = field_child(path, entry.key());
    if (properties != schema.end() && properties->contains(entry.key())) {
      check(entry.value(), (*properties)[entry.key()], child, problems);
    } else if (additional != schema.end() && additional->is_object()) {
      check(entry.value(), *additional, child, problems);
    } else if (properties != schema.end() && !open) {
      problems->push_back({child, "unknown field \"" + entry.key() + "\""});
    }
  }
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
