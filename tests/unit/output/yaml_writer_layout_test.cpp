// yaml_writer's layout: maps, lists and block scalars as kubectl writes them, sorted keys, long
// keys.
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "output/yaml_writer.h"
#include "yaml_text.h"

namespace trainjob {
namespace {

using testing::parse_back;
using testing::to_yaml;

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
}  // namespace
}  // namespace trainjob
