#include "model/field.h"

#include <algorithm>

#include "load/field_path.h"

namespace trainjob {

Field Field::operator[](std::string_view key) const {
  Field child{nullptr, field_child(path, key)};
  if (value != nullptr && value->is_object()) {
    auto it = value->find(key);
    if (it != value->end()) child.value = &*it;
  }
  return child;
}

Field Field::at(size_t index) const {
  Field child{nullptr, field_index(path, index)};
  if (value != nullptr && value->is_array() && index < value->size())
    child.value = &(*value)[index];
  return child;
}

std::string describe_value(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      return "a mapping";
    case Json::value_t::array:
      return "a list";
    case Json::value_t::string: {
      // A whole script in a message helps nobody; the position says where it is.
      constexpr size_t kShown = 60;
      const std::string& text = value.get_ref<const std::string&>();
      if (text.size() <= kShown && text.find('\n') == std::string::npos)
        return "string \"" + text + "\"";
      size_t cut = std::min(kShown, text.find('\n'));
      // Never cut a UTF-8 sequence in two: back up over its continuation bytes.
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
      return "string \"" + text.substr(0, cut) + "...\"";
    }
    case Json::value_t::boolean:
      return std::string("boolean ") + (value.get<bool>() ? "true" : "false");
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer " + value.dump();
    case Json::value_t::number_float:
      return "number " + value.dump();
    default:
      return "null";
  }
}

void FieldReader::error(const std::string& path, const std::string& message) const {
  diagnostics_->error(document_.file, document_.message_pos_of(path), path, message);
}

void FieldReader::key_error(const std::string& path, const std::string& message) const {
  diagnostics_->error(document_.file, document_.key_pos_of(path), path, message);
}

void FieldReader::warning(const std::string& path, const std::string& message) const {
  diagnostics_->warning(document_.file, document_.message_pos_of(path), path, message);
}

void FieldReader::mismatch(const Field& field, std::string_view expected) const {
  error(field.path,
        "expected " + std::string(expected) + ", found " + describe_value(*field.value));
}

bool FieldReader::is_object(const Field& field) const {
  if (!field) return false;
  if (field.value->is_object()) return true;
  mismatch(field, "a mapping");
  return false;
}

bool FieldReader::is_array(const Field& field) const {
  if (!field) return false;
  if (field.value->is_array()) return true;
  mismatch(field, "a list");
  return false;
}

std::optional<std::string> FieldReader::string(const Field& field) const {
  if (!field) return std::nullopt;
  if (field.value->is_string()) return field.value->get<std::string>();
  mismatch(field, "a string");
  return std::nullopt;
}

std::optional<int64_t> FieldReader::integer(const Field& field) const {
  if (!field) return std::nullopt;
  if (field.value->is_number_integer()) return field.value->get<int64_t>();
  mismatch(field, "an integer");
  return std::nullopt;
}

std::optional<bool> FieldReader::boolean(const Field& field) const {
  if (!field) return std::nullopt;
  if (field.value->is_boolean()) return field.value->get<bool>();
  mismatch(field, "a boolean (true or false)");
  return std::nullopt;
}

}  // namespace trainjob
