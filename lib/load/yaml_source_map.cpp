#include "load/yaml_source_map.h"

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

}  // namespace

SourcePos pos_from_mark(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

YamlSourceMap::Found YamlSourceMap::walk(std::string_view path) const {
  // YAML::Node's operator= writes through to the node it refers to; reset() rebinds.
  YAML::Node node;
  node.reset(root_);
  Found found{pos_from_mark(node.Mark()), {}};
  while (!path.empty()) {
    std::string_view segment = next_segment(&path);
    std::optional<YAML::Node> child;
    SourcePos key;
    if (node.IsMap()) {
      for (const auto& entry : node) {
        if (entry.first.IsScalar() && entry.first.Scalar() == segment) {
          child = entry.second;
          key = pos_from_mark(entry.first.Mark());
          break;
        }
      }
    } else if (node.IsSequence() && as_index(segment) && *as_index(segment) < node.size()) {
      child = node[*as_index(segment)];
    }
    if (!child) return {found.value, {}};
    node.reset(*child);
    SourcePos value = pos_from_mark(node.Mark());
    // `key:` with nothing after it has no position of its own; point at the key.
    found = {value.line > 0 ? value : key, key};
  }
  return found;
}

SourcePos YamlSourceMap::value_pos(std::string_view path) const {
  return walk(path).value;
}
SourcePos YamlSourceMap::key_pos(std::string_view path) const {
  return walk(path).key;
}

}  // namespace trainjob
