#include "output/yaml_writer.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "load/json_keys.h"
#include "load/yaml_loader.h"

namespace trainjob {
namespace {

std::string to_yaml(const Json& value, bool sorted = false) {
  Json copy = value;
  if (sorted) sort_keys(&copy);
  std::string out;
  write_yaml(copy, &out);
  return out;
}

// Reads YAML back with the project's loader (libyaml, Kubernetes' scalar rules).
Json parse_back(const std::string& yaml) {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("round-trip.yaml", yaml, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  REQUIRE(documents.size() == 1);
  return documents[0].value;
}

// The text a string becomes at the document root, without the final newline.
std::string scalar_text(const std::string& s) {
  std::string out = to_yaml(Json(s));
  REQUIRE(!out.empty());
  REQUIRE(out.back() == '\n');
  out.pop_back();
  return out;
}

TEST_CASE("yaml_writer: nested maps and lists in kubectl layout") {
  const Json doc = Json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "labels": {"app": "x"}},
    "spec": {"containers": [{"name": "node", "image": "img:1.0", "args": ["a", "--epochs=3"],
                             "resources": {"limits": {"cpu": "500m"}}}]}})");
  CHECK(to_yaml(doc) ==
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata:\n"
        "  name: p\n"
        "  labels:\n"
        "    app: x\n"
        "spec:\n"
        "  containers:\n"
        "  - name: node\n"
        "    image: img:1.0\n"
        "    args:\n"
        "    - a\n"
        "    - --epochs=3\n"
        "    resources:\n"
        "      limits:\n"
        "        cpu: 500m\n");
}

TEST_CASE("yaml_writer: list of lists") {
  const Json doc = Json::parse(R"({"m": [[1, 2], [], [[3]], ["x", {"k": "v"}]]})");
  CHECK(to_yaml(doc) ==
        "m:\n"
        "- - 1\n"
        "  - 2\n"
        "- []\n"
        "- - - 3\n"
        "- - x\n"
        "  - k: v\n");
}

TEST_CASE("yaml_writer: maps in lists in maps") {
  const Json doc = Json::parse(R"([{"a": [1, {"b": [true]}], "c": {"d": "e"}}, {}, {"f": null}])");
  CHECK(to_yaml(doc) ==
        "- a:\n"
        "  - 1\n"
        "  - b:\n"
        "    - true\n"
        "  c:\n"
        "    d: e\n"
        "- {}\n"
        "- f: null\n");
}

TEST_CASE("yaml_writer: empty containers and null") {
  CHECK(to_yaml(Json::object()) == "{}\n");
  CHECK(to_yaml(Json::array()) == "[]\n");
  CHECK(to_yaml(Json()) == "null\n");
  CHECK(to_yaml(Json::parse(R"({"a": {}, "b": [], "c": null, "d": [{}, []]})")) ==
        "a: {}\nb: []\nc: null\nd:\n- {}\n- []\n");
}

TEST_CASE("yaml_writer: appends to existing output") {
  std::string out = "---\n";
  write_yaml(Json::parse(R"({"a": 1})"), &out);
  write_yaml(Json::parse(R"({"b": 2})"), &out);
  CHECK(out == "---\na: 1\nb: 2\n");
}

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

TEST_CASE("yaml_writer: multi-line strings use literal block scalars") {
  const auto value_yaml = [](const std::string& s) { return to_yaml(Json{{"s", s}}); };
  CHECK(value_yaml("line1\nline2\n") == "s: |\n  line1\n  line2\n");
  CHECK(value_yaml("line1\nline2") == "s: |-\n  line1\n  line2\n");
  CHECK(value_yaml("line1\n\n") == "s: |+\n  line1\n\n");
  CHECK(value_yaml("line1\n\n\n") == "s: |+\n  line1\n\n\n");
  CHECK(value_yaml("a\n\nb\n") == "s: |\n  a\n\n  b\n");
  CHECK(value_yaml("  indented\nx\n") == "s: |2\n    indented\n  x\n");
  CHECK(value_yaml("\nfoo") == "s: |2-\n\n  foo\n");
  CHECK(value_yaml("key: 'v' # c\n- item\n") == "s: |\n  key: 'v' # c\n  - item\n");
  CHECK(value_yaml("中文\n第二行\n") == "s: |\n  中文\n  第二行\n");
  // Trailing spaces, blank-only text and other control characters fall back to double quotes.
  CHECK(value_yaml("a \nb") == "s: \"a \\nb\"\n");
  CHECK(value_yaml("a\nb ") == "s: \"a\\nb \"\n");
  CHECK(value_yaml("\n") == "s: \"\\n\"\n");
  CHECK(value_yaml("a\r\nb") == "s: \"a\\r\\nb\"\n");
  CHECK(value_yaml("a\n\tb") == "s: \"a\\n\\tb\"\n");
}

TEST_CASE("yaml_writer: literal block scalars nest at the right indentation") {
  const Json doc = Json{{"data", {{"run.sh", "#!/bin/sh\necho hi\n"}}},
                        {"args", Json::array({"set -e\n  x", Json::array({"a\nb\n"})})}};
  CHECK(to_yaml(doc) ==
        "data:\n"
        "  run.sh: |\n"
        "    #!/bin/sh\n"
        "    echo hi\n"
        "args:\n"
        "- |-\n"
        "  set -e\n"
        "    x\n"
        "- - |\n"
        "    a\n"
        "    b\n");
}

TEST_CASE("yaml_writer: after sort_keys, keys are bytewise sorted at every level") {
  const Json doc = Json::parse(
      R"({"b": 1, "a": {"d": 1, "c": 2}, "B": [{"z": 1, "x": 2}], "\u00e9": 0, "aa": 1})");
  CHECK(to_yaml(doc, true) ==
        "B:\n"
        "- x: 2\n"
        "  z: 1\n"
        "a:\n"
        "  c: 2\n"
        "  d: 1\n"
        "aa: 1\n"
        "b: 1\n"
        "\xc3\xa9: 0\n");
  CHECK(to_yaml(doc) ==
        "b: 1\n"
        "a:\n"
        "  d: 1\n"
        "  c: 2\n"
        "B:\n"
        "- z: 1\n"
        "  x: 2\n"
        "\xc3\xa9: 0\n"
        "aa: 1\n");
}

TEST_CASE("yaml_writer: keys follow the quoting rules") {
  const Json doc = Json::parse(R"({"": 1, "true": 2, "1": 3, "a: b": 4, "-x": 5, "it's": 6})");
  CHECK(to_yaml(doc) == "'': 1\n'true': 2\n'1': 3\n'a: b': 4\n-x: 5\nit's: 6\n");
}

TEST_CASE("yaml_writer: keys over 1024 characters use the explicit form") {
  const std::string key(1025, 'k');
  const std::string at_limit(1024, 'k');
  CHECK(to_yaml(Json{{at_limit, 1}}) == at_limit + ": 1\n");
  CHECK(to_yaml(Json{{key, 1}}) == "? " + key + "\n: 1\n");
  const Json doc = {{"m", {{key, {{"a", 1}}}}}, {"l", Json::array({{{key, {1, 2}}, {"b", 3}}})}};
  CHECK(to_yaml(doc) ==
        "m:\n  ? " + key + "\n  :\n    a: 1\nl:\n- ? " + key + "\n  :\n  - 1\n  - 2\n  b: 3\n");
  CHECK(parse_back(to_yaml(doc)) == doc);
}

TEST_CASE("yaml_writer: binary values are rejected") {
  std::string out;
  CHECK_THROWS_AS(write_yaml(Json::binary({1, 2}), &out), std::invalid_argument);
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
