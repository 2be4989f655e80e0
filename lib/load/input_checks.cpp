#include "load/input_checks.h"

#include <cstdio>

#include "load/json.h"
#include "util/byte_scan.h"

namespace trainjob {

SourcePos position_of(std::string_view text, size_t offset) {
  SourcePos pos{1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++pos.column;
    }
  }
  return pos;
}

bool check_control_characters(const std::string& file, std::string_view text,
                              Diagnostics* diagnostics) {
  if (!has_control_character(text)) return true;
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (is_control_character(c)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      diagnostics->error(
          file, position_of(text, i), "",
          std::string("invalid YAML: control character ") + hex + " (is this a binary file?)");
      return false;
    }
  }
  return true;
}

bool check_json(const std::string& file, std::string_view text, Diagnostics* diagnostics) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return true;
  if (Json::accept(text)) return true;
  try {
    Json parsed = Json::parse(text);  // only for the error's position and wording
  } catch (const Json::parse_error& e) {
    // A stream of several JSON objects is fine: kubectl reads them one after another.
    if (std::string(e.what()).find("expected end of input") != std::string::npos) return true;
    std::string what = e.what();
    size_t detail = what.find("syntax error");
    diagnostics->error(
        file, position_of(text, e.byte == 0 ? 0 : e.byte - 1), "",
        "invalid JSON: " + (detail == std::string::npos ? what : what.substr(detail)));
    return false;
  }
  return true;
}

}  // namespace trainjob
