#include "load/document.h"

namespace trainjob {
namespace {

std::string string_at(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

SourcePos Document::pos_of(std::string_view path) const {
  return source_map ? source_map->value_pos(value, path) : SourcePos{};
}

SourcePos Document::key_pos_of(std::string_view path) const {
  SourcePos key = source_map ? source_map->key_pos(value, path) : SourcePos{};
  return key.line > 0 ? key : pos_of(path);
}

std::string Document::kind() const {
  return string_at(value, "kind");
}
std::string Document::api_version() const {
  return string_at(value, "apiVersion");
}

std::string Document::name() const {
  auto it = value.find("metadata");
  return it != value.end() ? string_at(*it, "name") : std::string();
}

std::string Document::name_space() const {
  auto it = value.find("metadata");
  return it != value.end() ? string_at(*it, "namespace") : std::string();
}

}  // namespace trainjob
