// Whole-input byte scans, sixteen bytes per step. They run before a large stream is split
// over the cores, so they are on every run's critical path.
#ifndef TRAINJOB_UTIL_BYTE_SCAN_H_
#define TRAINJOB_UTIL_BYTE_SCAN_H_

#include <cstddef>
#include <string_view>

namespace trainjob {

/// How many '\n' the text holds.
size_t count_newlines(std::string_view text);

/// A byte YAML never allows: a C0 control character other than tab, line feed and
/// carriage return, or DEL.
inline bool is_control_character(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
}

/// Whether any byte of the text is_control_character.
bool has_control_character(std::string_view text);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_BYTE_SCAN_H_
