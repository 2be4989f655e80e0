#include "load/yaml/mark_source_map.h"

#include <cctype>
#include <optional>
#include <string>

namespace trainjob {
namespace {

/// Splits the next segment off a field path: `name`, or the text inside `[...]`.
std::string_view next_segment(std::string_view* rest) {
  if (!rest->empty() && rest->front() == '.') rest->remove_prefix(1);
  if (!rest->empty() && rest->front() == '[') {
    // A bracketed map key may hold dots or brackets; it ends at a ']' that ends the
    // path or is followed by the next segment.
    for (size_t close = 1; close < rest->size(); ++close) {
      if ((*rest)[close] != ']') continue;
      bool last = close + 1 == rest->size();
      if (last || (*rest)[close + 1] == '.' || (*rest)[close + 1] == '[') {
        std::string_view segment = rest->substr(1, close - 1);
        rest->remove_prefix(close + 1);
        return segment;
      }
    }
  }
  size_t end = rest->find_first_of(".[");
  std::string_view segment = rest->substr(0, end);
  rest->remove_prefix(end == std::string_view::npos ? rest->size() : end);
  return segment;
}

std::optional<size_t> as_index(std::string_view segment) {
  if (segment.empty() || segment.size() > 9) return std::nullopt;
  size_t index = 0;
  for (char c : segment) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return std::nullopt;
    index = index * 10 + static_cast<size_t>(c - '0');
  }
  return index;
}

/// The child of `node` named by `segment` and its pre-order index, given `node`'s.
const Json* find_child(const Json& node, std::string_view segment, size_t* index) {
  size_t next = *index + 1;
  if (node.is_object()) {
    for (const auto& entry : node.items()) {
      if (entry.key() == segment) {
        *index = next;
        return &entry.value();
      }
      next += node_count(entry.value());
    }
  } else if (node.is_array()) {
    std::optional<size_t> wanted = as_index(segment);
    if (!wanted || *wanted >= node.size()) return nullptr;
    for (size_t i = 0; i < *wanted; ++i)
      next += node_count(node[i]);
    *index = next;
    return &node[*wanted];
  }
  return nullptr;
}

}  // namespace

size_t node_count(const Json& value) {
  size_t count = 1;
  if (value.is_object()) {
    for (const auto& entry : value.items())
      count += node_count(entry.value());
  } else if (value.is_array()) {
    for (const Json& item : value)
      count += node_count(item);
  }
  return count;
}

const NodeMark* MarkSourceMap::walk(const Json& root, std::string_view path, bool* complete) const {
  size_t index = 0;
  const Json* node = &root;
  *complete = false;
  while (!path.empty()) {
    size_t child_index = index;
    const Json* child = find_child(*node, next_segment(&path), &child_index);
    if (child == nullptr || child_index >= marks_.size()) break;
    node = child;
    index = child_index;
  }
  *complete = path.empty();
  return index < marks_.size() ? &marks_[index] : nullptr;
}

SourcePos MarkSourceMap::value_pos(const Json& root, std::string_view path) const {
  bool complete = false;
  const NodeMark* mark = walk(root, path, &complete);
  return mark != nullptr ? mark->value : SourcePos{};
}

SourcePos MarkSourceMap::key_pos(const Json& root, std::string_view path) const {
  bool complete = false;
  const NodeMark* mark = walk(root, path, &complete);
  return mark != nullptr && complete ? mark->key : SourcePos{};
}

}  // namespace trainjob
