#include "output/json_text.h"

#include <string>

#include <doctest/doctest.h>

#include "load/json.h"

namespace trainjob {
namespace {

std::string as_json(std::string_view text) {
  std::string out;
  append_json_string(text, &out);
  return out;
}

TEST_CASE("JSON strings escape what JSON requires and keep UTF-8 as it is") {
  CHECK(as_json("plain") == "\"plain\"");
  CHECK(as_json("say \"hi\" \\ bye") == R"("say \"hi\" \\ bye")");
  CHECK(as_json("a\nb\tc\rd\be\ff") == R"("a\nb\tc\rd\be\ff")");
  CHECK(as_json(std::string("\x01\x1f", 2)) == R"("\u0001\u001f")");
  CHECK(as_json("≥ ä 😀") == "\"≥ ä 😀\"");
}

TEST_CASE("JSON strings replace bytes that are not UTF-8, so the report always parses") {
  CHECK(as_json("a\xC3") == "\"a\xEF\xBF\xBD\"");                                // cut in two
  CHECK(as_json("\xC0\xAF") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");                  // overlong
  CHECK(as_json("\xED\xA0\x80") == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // surrogate
  CHECK(as_json("\xFF") == "\"\xEF\xBF\xBD\"");
}

TEST_CASE("JSON strings read back as the text they were written from") {
  for (std::string text : {"", "x", "tab\there", "quote\"", "back\\slash", "ünïcödé ≤ 63"}) {
    CHECK(Json::parse(as_json(text)).get<std::string>() == text);
  }
}

}  // namespace
}  // namespace trainjob
