// One-line scalars of block YAML, scanned the way libyaml reads them.
#include "load/yaml/block_scalars.h"

#include <cstring>

#include "load/yaml/block_events.h"

namespace trainjob {
namespace {

/// libyaml refuses a simple key longer than this.
constexpr size_t kMaxKeyLength = 1024;

/// Characters that give a scalar at the start of a value some other meaning: flow
/// collections, comments, anchors, aliases, tags, block scalars, directives, reserved.
bool starts_other_syntax(char c) {
  return std::strchr("[]{},#&*!|>%@`?:", c) != nullptr;
}

}  // namespace

bool is_blank_at(std::string_view text, size_t i) {
  return i >= text.size() || text[i] == ' ';
}

size_t skip_spaces(std::string_view text, size_t i) {
  while (i < text.size() && text[i] == ' ')
    ++i;
  return i;
}

/// After a scalar: only spaces, then the line's end or a comment.
bool rest_is_blank_or_comment(std::string_view text, size_t i) {
  size_t spaces = skip_spaces(text, i);
  return spaces == text.size() || (text[spaces] == '#' && spaces > i);
}

/// A scalar inside a flow collection. Plain ones end at a flow indicator; a `:` inside
/// one is read differently by libyaml versions, so it is left to libyaml.
ScannedScalar scan_flow_scalar(std::string_view text, size_t column) {
  if (column >= text.size()) throw OutsideSubset();
  ScannedScalar scalar;
  char first = text[column];
  if (first == '"' || first == '\'') {
    if (!scan_quoted(text, column, &scalar)) throw OutsideSubset();
    return scalar;
  }
  if (starts_other_syntax(first) || first == '-') throw OutsideSubset();
  size_t i = column;
  while (i < text.size() && std::strchr(",[]{}", text[i]) == nullptr) {
    if (text[i] == ':' || (text[i] == '#' && text[i - 1] == ' ')) break;
    ++i;
  }
  if (i == text.size() || text[i] == '#' || text[i] == '[' || text[i] == '{') throw OutsideSubset();
  size_t end = text.find_last_not_of(' ', i - 1) + 1;
  return {column, end, end, YAML_PLAIN_SCALAR_STYLE};
}

bool scan_key(std::string_view text, size_t column, ScannedScalar* key, size_t* colon) {
  size_t i = column;
  if (text[i] == '"' || text[i] == '\'') {
    if (!scan_quoted(text, column, key)) throw OutsideSubset();
    i = text.find_first_not_of(' ', key->after);
    if (i == std::string_view::npos || text[i] != ':') return false;
  } else {
    if (starts_other_syntax(text[i]) || is_entry_dash(text, i)) return false;
    for (; i < text.size(); ++i) {
      if (text[i] == ':' && is_blank_at(text, i + 1)) break;
      if (text[i] == '#' && text[i - 1] == ' ') return false;
    }
    if (i == text.size()) return false;
    size_t end = text.find_last_not_of(' ', i - 1) + 1;
    *key = {column, end, i, YAML_PLAIN_SCALAR_STYLE};
  }
  if (!is_blank_at(text, i + 1)) return false;
  if (i - column > kMaxKeyLength) throw OutsideSubset();
  *colon = i;
  return true;
}

ScannedScalar scan_value(std::string_view text, size_t column) {
  ScannedScalar value;
  if (text[column] == '"' || text[column] == '\'') {
    if (!scan_quoted(text, column, &value) || !rest_is_blank_or_comment(text, value.after)) {
      throw OutsideSubset();
    }
    return value;
  }
  if (starts_other_syntax(text[column]) || is_entry_dash(text, column)) {
    throw OutsideSubset();
  }
  size_t i = column;
  for (; i < text.size(); ++i) {
    if (text[i] == ':' && is_blank_at(text, i + 1)) throw OutsideSubset();  // a nested key
    if (text[i] == '#' && text[i - 1] == ' ') break;
  }
  size_t end = text.find_last_not_of(' ', i - 1) + 1;
  return {column, end, end, YAML_PLAIN_SCALAR_STYLE};
}

/// A quoted scalar that closes on its line, with no escapes (`\` or `''`) to undo.
bool scan_quoted(std::string_view text, size_t column, ScannedScalar* scalar) {
  char quote = text[column];
  size_t close = text.find(quote, column + 1);
  if (close == std::string_view::npos) return false;
  if (quote == '"' && text.substr(column, close - column).find('\\') != std::string_view::npos) {
    return false;
  }
  if (quote == '\'' && close + 1 < text.size() && text[close + 1] == '\'') return false;
  *scalar = {column + 1, close, close + 1,
             quote == '"' ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_SINGLE_QUOTED_SCALAR_STYLE};
  return true;
}

}  // namespace trainjob
