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

const std::string& Document::kind() const {
  return string_member_ref(value, "kind");
}
const std::string& Document::api_version() const {
  return string_member_ref(value, "apiVersion");
}

const std::string& Document::name() const {
  return string_member_ref(metadata(), "name");
}

const std::string& Document::name_space() const {
  return string_member_ref(metadata(), "namespace");
}

const Json& Document::metadata() const {
  static const Json none;
  if (!value.is_object()) return none;
  auto it = value.find("metadata");
  return it != value.end() ? *it : none;
}

}  // namespace trainjob
