#include "load/document.h"

namespace trainjob {

SourcePos Document::pos_of(std::string_view path) const {
  return source_map ? source_map->value_pos(value, path) : SourcePos{};
}

SourcePos Document::key_pos_of(std::string_view path) const {
  SourcePos key = source_map ? source_map->key_pos(value, path) : SourcePos{};
  return key.line > 0 ? key : pos_of(path);
}

SourcePos Document::message_pos_of(std::string_view path) const {
  SourcePos at_value = pos_of(path);
  SourcePos key = source_map ? source_map->key_pos(value, path) : SourcePos{};
  return key.line > 0 && key.line < at_value.line ? key : at_value;
}

std::string Document::kind() const {
  return string_member(value, "kind");
}
std::string Document::api_version() const {
  return string_member(value, "apiVersion");
}

std::string Document::name() const {
  auto it = value.find("metadata");
  return it != value.end() ? string_member(*it, "name") : std::string();
}

std::string Document::name_space() const {
  auto it = value.find("metadata");
  return it != value.end() ? string_member(*it, "namespace") : std::string();
}

}  // namespace trainjob
