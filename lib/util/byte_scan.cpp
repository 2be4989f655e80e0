// GCC's vector extensions rather than one target's intrinsics: the same code becomes SSE2
// on x86-64 and NEON on arm64.
#include "util/byte_scan.h"

#include <cstdint>
#include <cstring>

namespace trainjob {
namespace {

using Bytes = unsigned char __attribute__((vector_size(16)));
using Flags = signed char __attribute__((vector_size(16)));  // per byte: 0 or -1
constexpr size_t kWidth = sizeof(Bytes);

Bytes load(const char* at) {
  Bytes bytes;
  std::memcpy(&bytes, at, kWidth);
  return bytes;
}

bool any(Flags flags) {
  uint64_t halves[2];
  std::memcpy(halves, &flags, kWidth);
  return (halves[0] | halves[1]) != 0;
}

}  // namespace

size_t count_newlines(std::string_view text) {
  size_t count = 0;
  size_t i = 0;
  while (i + kWidth <= text.size()) {
    // Byte lanes count down from 0 by one per newline; 255 steps cannot overflow them.
    Flags lanes{};
    for (int step = 0; step < 255 && i + kWidth <= text.size(); ++step, i += kWidth)
      lanes += static_cast<Flags>(load(text.data() + i) == '\n');
    for (size_t lane = 0; lane < kWidth; ++lane)
      count += static_cast<unsigned char>(-lanes[lane]);
  }
  for (; i < text.size(); ++i)
    count += text[i] == '\n';
  return count;
}

bool has_control_character(std::string_view text) {
  size_t i = 0;
  for (; i + kWidth <= text.size(); i += kWidth) {
    Bytes bytes = load(text.data() + i);
    Flags control =
        static_cast<Flags>((bytes < 0x20) & (bytes != '\t') & (bytes != '\n') & (bytes != '\r')) |
        static_cast<Flags>(bytes == 0x7F);
    if (any(control)) return true;
  }
  for (; i < text.size(); ++i) {
    if (is_control_character(static_cast<unsigned char>(text[i]))) return true;
  }
  return false;
}

}  // namespace trainjob
