// yaml_writer's scalars: numbers, booleans, and strings plain or quoted so that they read back the
// same.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "output/yaml_writer.h"
#include "yaml_text.h"

namespace trainjob {
namespace {

using testing::parse_back;
using testing::scalar_text;
using testing::to_yaml;

TEST_CASE("yaml_writer: numbers and booleans") {
  const Json doc = Json::parse(R"({"i": -42, "u": 18446744073709551615, "z": 0, "f": 1.5,
    "g": 1.0, "h": 1e20, "t": 1e-7, "hundred": 100.0, "yes": true, "no": false})");
  CHECK(to_yaml(doc) ==
        "i: -42\nu: 18446744073709551615\nz: 0\nf: 1.5\ng: 1.0\nh: 1.0e+20\nt: 1.0e-07\n"
        "hundred: 100.0\n'yes': true\n'no': false\n");
  CHECK(to_yaml(Json(std::numeric_limits<int64_t>::min())) == "-9223372036854775808\n");
  CHECK(to_yaml(Json(0.1)) == "0.1\n");
  CHECK(to_yaml(Json(-0.0)) == "-0.0\n");
  CHECK(to_yaml(Json(std::nan(""))) == ".nan\n");
  CHECK(to_yaml(Json(std::numeric_limits<double>::infinity())) == ".inf\n");
  CHECK(to_yaml(Json(-std::numeric_limits<double>::infinity())) == "-.inf\n");
}

TEST_CASE("yaml_writer: plain strings stay plain") {
  for (const char* s : {"hello",
                        "hello world",
                        "500m",
                        "1Gi",
                        "1.2.3",
                        "v1.0",
                        "a:b",
                        "http://example.com:8080/path?q=1",
                        "a#b",
                        "--flag=x",
                        "-x",
                        "it's",
                        "x-y",
                        "key=value",
                        "a, b",
                        "a[0]",
                        "x{{ .Values }}",
                        "1e",
                        "0x",
                        "0xG",
                        "1:60",
                        "2024-foo",
                        "12-14",
                        ".",
                        "+",
                        "nullable",
                        "Yes!",
                        "tRUE",
                        "yes please",
                        "中文测试",
                        "café",
                        "\xc2\xa0nbsp",
                        "a  b",
                        "=a",
                        "<<a"}) {
    const std::string text = s;
    CAPTURE(text);
    CHECK(scalar_text(text) == text);
  }
}

TEST_CASE("yaml_writer: strings read as other types are single-quoted") {
  for (const char* s : {"null",
                        "~",
                        "Null",
                        "NULL",
                        "y",
                        "Y",
                        "yes",
                        "Yes",
                        "YES",
                        "n",
                        "N",
                        "no",
                        "No",
                        "NO",
                        "on",
                        "On",
                        "ON",
                        "off",
                        "Off",
                        "OFF",
                        "true",
                        "True",
                        "TRUE",
                        "false",
                        "False",
                        "FALSE",
                        "123",
                        "-1",
                        "+1",
                        "0",
                        "007",
                        "08",
                        "0.5",
                        ".5",
                        "1.",
                        "-1.5e3",
                        "1e3",
                        "1E-3",
                        "0x1F",
                        "0X1f",
                        "-0x1F",
                        "0o17",
                        "0b101",
                        "+0b1",
                        "1_000",
                        "1__0.5",
                        "0x_1F",
                        "1:20",
                        "-1:20:30.5",
                        "190:20:30",
                        ".inf",
                        ".Inf",
                        ".INF",
                        "+.inf",
                        "-.Inf",
                        ".nan",
                        ".NaN",
                        ".NAN",
                        "2001-12-14",
                        "2001-1-4",
                        "2001-12-14t21:59:43.10-05:00",
                        "2001-12-14 21:59:43.10 -5",
                        "<<",
                        "="}) {
    const std::string text = s;
    CAPTURE(text);
    CHECK(scalar_text(text) == "'" + text + "'");
  }
}

TEST_CASE("yaml_writer: strings that would break the syntax are single-quoted") {
  for (const char* s :
       {"-",  "- a", "---", "--- x", "...", "...x", "?x",   ":x", ",x",         "[x",
        "]x", "{x",  "}x",  "#x",    "&x",  "*x",   "!x",   "|x", ">x",         "\"x",
        "%x", "@x",  "`x",  " x",    "x ",  "a: b", "a #b", "a:", "http://x: y"}) {
    const std::string text = s;
    CAPTURE(text);
    CHECK(scalar_text(text) == "'" + text + "'");
  }
  CHECK(scalar_text("") == "''");
  CHECK(scalar_text("'x") == "'''x'");
  CHECK(scalar_text("it's: 'quoted'") == "'it''s: ''quoted'''");
}

TEST_CASE("yaml_writer: a value that opens with a curly quote is quoted, showing they are text") {
  CHECK(scalar_text("“你好”") == "'“你好”'");
  CHECK(scalar_text("‘训练’") == "'‘训练’'");
  CHECK(scalar_text("他说“你好”") == "他说“你好”");  // inside text they read as text
  CHECK(scalar_text("”x") == "”x");
  // Read back with this tool's checks, the output has nothing to warn about.
  Diagnostics diagnostics;
  load_documents("out.yaml", to_yaml(Json{{"value", "“你好”"}}), &diagnostics);
  CHECK(diagnostics.all().empty());
}

TEST_CASE("yaml_writer: control, non-printable and invalid UTF-8 use double quotes") {
  CHECK(scalar_text("a\tb") == R"("a\tb")");
  CHECK(scalar_text("a\rb") == R"("a\rb")");
  CHECK(scalar_text(std::string("nul\0x", 5)) == R"("nul\x00x")");
  CHECK(scalar_text("\x01\x1b\x7f") == R"("\x01\x1B\x7F")");
  CHECK(scalar_text("tab\t\"q\" back\\slash") == R"("tab\t\"q\" back\\slash")");
  CHECK(scalar_text("nel\xc2\x85") == R"("nel\x85")");
  CHECK(scalar_text("ls\xe2\x80\xa8ps\xe2\x80\xa9") == R"("ls\u2028ps\u2029")");
  CHECK(scalar_text("\xef\xbb\xbf"
                    "bom") == R"("\uFEFFbom")");
  CHECK(scalar_text("\xe4\xb8\xad\t") == "\"\xe4\xb8\xad\\t\"");  // valid UTF-8 kept as-is
  CHECK(scalar_text("a\xff"
                    "b") == R"("a\xFFb")");
  CHECK(scalar_text("trunc\xe4\xb8") == R"("trunc\xE4\xB8")");
  CHECK(scalar_text("cut\xe0\x8a"
                    "A") == R"("cut\xE0\x8AA")");
  CHECK(scalar_text("overlong\xc0\xaf") == R"("overlong\xC0\xAF")");
  CHECK(scalar_text("surrogate\xed\xa0\x80") == R"("surrogate\xED\xA0\x80")");
  CHECK(scalar_text("big\xf4\x90\x80\x80") == R"("big\xF4\x90\x80\x80")");
  CHECK(scalar_text("a\nb") == R"("a\nb")");  // no block scalars at the document root
  CHECK(to_yaml(Json::parse(R"({"a\nb": "c\td"})")) == "\"a\\nb\": \"c\\td\"\n");
}

struct RoundTrip {
  std::string text;
  bool must_quote;  // would read as a non-string (or not parse) if written plain
};

const std::vector<RoundTrip>& round_trip_table() {
  static const std::vector<RoundTrip> table = {{"plain", false},
                                               {"--epochs=3", false},
                                               {"a:b", false},
                                               {"http://h:80/p#f", false},
                                               {"1.2.3", false},
                                               {"500m", false},
                                               {"中文", false},
                                               {"it's", false},
                                               {"a,b]}", false},
                                               {"", true},
                                               {"null", true},
                                               {"~", true},
                                               {"yes", true},
                                               {"Off", true},
                                               {"y", true},
                                               {"TRUE", true},
                                               {"123", true},
                                               {"-1.5e3", true},
                                               {".5", true},
                                               {"0x1F", true},
                                               {"0o17", true},
                                               {"0b11", true},
                                               {"1_000", true},
                                               {"1:20", true},
                                               {".inf", true},
                                               {"-.INF", true},
                                               {".NaN", true},
                                               {"2001-12-14", true},
                                               {"<<", true},
                                               {"=", true},
                                               {"-", true},
                                               {"- x", true},
                                               {"---", true},
                                               {"...", true},
                                               {"? x", true},
                                               {": x", true},
                                               {"#c", true},
                                               {"&a", true},
                                               {"*a", true},
                                               {"!t", true},
                                               {"|", true},
                                               {">", true},
                                               {"'q'", true},
                                               {"\"q\"", true},
                                               {"%p", true},
                                               {"@a", true},
                                               {"`b", true},
                                               {"{a}", true},
                                               {"[a]", true},
                                               {",", true},
                                               {" lead", true},
                                               {"trail ", true},
                                               {"a: b", true},
                                               {"a #b", true},
                                               {"a:", true},
                                               {"tab\there", true},
                                               {"cr\rlf", true},
                                               {"\x01", true},
                                               {"q\"\\", false},
                                               {"nel\xc2\x85", true},
                                               {"ls\xe2\x80\xa8", true},
                                               {"multi\nline\n", true},
                                               {"strip\nme", true},
                                               {"keep\n\n\n", true},
                                               {"  lead\nspace\n", true},
                                               {"\n\nlead blank", true},
                                               {"trail \nspace", true},
                                               {"#!/bin/sh\nset -e\necho \"$1\" # done\n", true},
                                               {"\n", true},
                                               {"\n\n", true}};
  return table;
}

TEST_CASE("yaml_writer: tricky strings read back as the same strings") {
  // The loader resolves plain scalars by YAML 1.1 rules, as Kubernetes does, so a string
  // that needed quotes and did not get them would come back as a boolean or a number.
  for (const RoundTrip& row : round_trip_table()) {
    CAPTURE(row.text);
    const Json doc = {{"value", row.text},
                      {"list", Json::array({Json::array({row.text}), row.text})},
                      {"map", {{row.text, row.text}}},
                      {"after", "end"}};
    const std::string yaml = to_yaml(doc);
    CAPTURE(yaml);
    CHECK(parse_back(yaml) == doc);
    if (row.must_quote) {
      const char first = yaml[std::string("value: ").size()];
      CHECK((first == '\'' || first == '"' || first == '|'));
    }
  }
}

TEST_CASE("yaml_writer: numbers read back as the same numbers") {
  const Json doc = Json::parse(R"({"i": -42, "u": 18446744073709551615, "f": 0.1, "e": 1e300,
    "t": 1.5e-300, "b": true})");
  const Json back = parse_back(to_yaml(doc));
  CHECK(back["i"] == -42);
  CHECK(back["u"] == std::numeric_limits<uint64_t>::max());
  CHECK(back["f"] == 0.1);
  CHECK(back["e"] == 1e300);
  CHECK(back["t"] == 1.5e-300);
  CHECK(back["b"] == true);
}

}  // namespace
}  // namespace trainjob
