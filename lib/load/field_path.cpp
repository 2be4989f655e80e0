#include "load/field_path.h"

#include <cctype>

namespace trainjob {
namespace {

bool is_identifier(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '$') return false;
  }
  return true;
}

}  // namespace

std::string field_child(std::string_view parent, std::string_view key) {
  std::string out(parent);
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
