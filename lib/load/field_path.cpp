#include "load/field_path.h"

namespace trainjob {
namespace {

// ASCII only, without the locale lookups of <cctype>: this runs for every field read.
bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

bool is_identifier(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (!is_identifier_char(c)) return false;
  }
  return true;
}

}  // namespace

std::string field_child(std::string_view parent, std::string_view key) {
  std::string out;
  out.reserve(parent.size() + key.size() + 2);
  out += parent;
  if (is_identifier(key)) {
    if (!out.empty()) out += '.';
    out += key;
  } else {
    out += '[';
    out += key;
    out += ']';
  }
  return out;
}

std::string field_index(std::string_view parent, size_t index) {
  std::string out(parent);
  out += '[';
  out += std::to_string(index);
  out += ']';
  return out;
}

std::string_view field_parent(std::string_view path) {
  if (path.empty()) return path;
  if (path.back() == ']') {
    // A bracketed key may itself contain dots or brackets, so find its opening bracket.
    size_t open = path.rfind('[');
    return open == std::string_view::npos ? std::string_view() : path.substr(0, open);
  }
  size_t cut = path.find_last_of(".]");
  if (cut == std::string_view::npos) return {};
  return path[cut] == ']' ? path.substr(0, cut + 1) : path.substr(0, cut);
}

}  // namespace trainjob
