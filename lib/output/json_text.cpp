#include "output/json_text.h"

#include <cstdint>

namespace trainjob {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

/// Length of the well-formed UTF-8 sequence at the start of `text`, or 0.
size_t utf8_sequence_length(std::string_view text) {
  auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  uint8_t lead = byte(0);
  size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (lead >= 0xF5 || length == 0 || text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
  }
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
  if (lead == 0xE0 && byte(1) < 0xA0) return 0;
  if (lead == 0xED && byte(1) >= 0xA0) return 0;
  if (lead == 0xF0 && byte(1) < 0x90) return 0;
  if (lead == 0xF4 && byte(1) >= 0x90) return 0;
  return length;
}

void append_escaped_control(char c, std::string* out) {
  switch (c) {
    case '\b':
      *out += "\\b";
      return;
    case '\f':
      *out += "\\f";
      return;
    case '\n':
      *out += "\\n";
      return;
    case '\r':
      *out += "\\r";
      return;
    case '\t':
      *out += "\\t";
      return;
    default: {
      static const char kHex[] = "0123456789abcdef";
      *out += "\\u00";
      *out += kHex[(c >> 4) & 0xF];
      *out += kHex[c & 0xF];
    }
  }
}

}  // namespace

void append_json_string(std::string_view text, std::string* out) {
  out->reserve(out->size() + text.size() + 2);
  *out += '"';
  size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x80) {
      size_t length = utf8_sequence_length(text.substr(i));
      if (length == 0) {
        *out += kReplacementCharacter;
        ++i;
      } else {
        out->append(text, i, length);
        i += length;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += static_cast<char>(c);
    } else if (c < 0x20) {
      append_escaped_control(static_cast<char>(c), out);
    } else {
      *out += static_cast<char>(c);
    }
    ++i;
  }
  *out += '"';
}

}  // namespace trainjob
