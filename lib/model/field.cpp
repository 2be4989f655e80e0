#include "model/field.h"

#include <algorithm>
#include <vector>

#include "load/field_path.h"
#include "load/typing_checks.h"

namespace trainjob {

namespace {

/// One step from a node to its child: a key, or an index when `key` is null.
struct Step {
  const std::string* key;
  size_t index;
};

/// Finds `target` below `node`, recording the steps to it from the last to the first.
/// Only pointers are compared on the way: the path is spelt out once, when found.
bool find_steps(const Json& node, const Json* target, std::vector<Step>* steps) {
  if (&node == target) return true;
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (find_steps(*it, target, steps)) {
        steps->push_back({&it.key(), 0});
        return true;
      }
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      if (find_steps(node[i], target, steps)) {
        steps->push_back({nullptr, i});
        return true;
      }
    }
  }
  return false;
}

std::string path_to(const Json& root, const Json* target) {
  std::vector<Step> steps;
  find_steps(root, target, &steps);
  std::string path;
  for (auto step = steps.rbegin(); step != steps.rend(); ++step) {
    path = step->key != nullptr ? field_child(path, *step->key) : field_index(path, step->index);
  }
  return path;
}

}  // namespace

Field Field::operator[](std::string_view key) const {
  if (value != nullptr && value->is_object()) {
    auto it = value->find(key);
    if (it != value->end()) {
      Field child;
      child.root_ = root_;
      child.value = &*it;
      return child;
    }
  }
  return child_of_absent(field_child(value != nullptr ? "" : relative_, key));
}

Field Field::at(size_t index) const {
  if (value != nullptr && value->is_array() && index < value->size()) {
    Field child;
    child.root_ = root_;
    child.value = &(*value)[index];
    return child;
  }
  return child_of_absent(field_index(value != nullptr ? "" : relative_, index));
}

Field Field::child_of_absent(std::string relative) const {
  Field child;
  child.root_ = root_;
  child.anchor_ = value != nullptr ? value : anchor_;
  child.relative_ = std::move(relative);
  return child;
}

std::string Field::path() const {
  const Json* located = value != nullptr ? value : anchor_;
  std::string base = root_ != nullptr && located != nullptr ? path_to(*root_, located) : "";
  if (value != nullptr || relative_.empty()) return base;
  if (base.empty() || relative_.front() == '[') return base + relative_;
  return base + "." + relative_;
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
      // "２" looks like 2 on screen: say why it is a string (load/typing_checks.h).
      if (text.size() <= kShown && text.find('\n') == std::string::npos)
        return "string \"" + text + "\"" + wide_digits_hint(text);
      size_t cut = std::min(kShown, text.find('\n'));
      // Never cut a UTF-8 sequence in two: back up over its continuation bytes.
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
      // A long value also says how long it is: a name of 100,000 characters is not
      // mistaken for one of 61.
      constexpr size_t kSayLength = 200;
      std::string length =
          text.size() > kSayLength ? " (" + std::to_string(text.size()) + " bytes)" : "";
      return "string \"" + text.substr(0, cut) + "...\"" + length;
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

Field FieldReader::root() const {
  Field root;
  root.value = &document_.value;
  root.root_ = &document_.value;
  return root;
}

void FieldReader::mismatch(const Field& field, std::string_view expected) const {
  error(field.path(),
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
