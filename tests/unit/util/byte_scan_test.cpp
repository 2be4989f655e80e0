#include "util/byte_scan.h"

#include <string>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

TEST_CASE("count_newlines: short, long and ragged texts") {
  CHECK(count_newlines("") == 0);
  CHECK(count_newlines("a\nb\n") == 2);
  // Past the 255 steps of 16 bytes after which the lane counters are emptied.
  std::string text;
  for (int line = 0; line < 3000; ++line)
    text += std::string(static_cast<size_t>(line % 7), 'x') + "\n";
  text += "tail\n\n";
  CHECK(count_newlines(text) == 3002);
  std::string all_newlines(16 * 255 * 2 + 5, '\n');
  CHECK(count_newlines(all_newlines) == all_newlines.size());
}

TEST_CASE("has_control_character: anywhere, but not tab, newline or carriage return") {
  std::string text(100, 'a');
  text += "\t\r\n";
  CHECK_FALSE(has_control_character(text));
  for (size_t at : {size_t{0}, size_t{15}, size_t{16}, size_t{63}, text.size() - 1}) {
    for (char bad : {'\x00', '\x01', '\x1b', '\x1f', '\x7f'}) {
      std::string with = text;
      with[at] = bad;
      CAPTURE(at);
      CHECK(has_control_character(with));
    }
  }
  CHECK_FALSE(has_control_character("caf\xc3\xa9 \x80\xff"));  // bytes above DEL are text
}

}  // namespace
}  // namespace trainjob
