// BlockEventReader against libyaml: inside its subset the events are the same, outside it
// the reader gives up rather than guess.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "../../support/yaml_events.h"

namespace trainjob {
namespace {

using testing::block_subset_events;
using testing::libyaml_events;

void check_same_as_libyaml(const std::string& text) {
  CAPTURE(text);
  std::optional<std::string> fast = block_subset_events(text);
  REQUIRE(fast.has_value());
  CHECK(*fast == libyaml_events(text));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("block subset: manifests read without libyaml give libyaml's events") {
  const char* const cases[] = {
      "",
      "# only a comment\n",
      "a: 1\n",
      "a: 1",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    app: y\n",
      "a:\n  b:\n    c: d\n  e: f\ng: h\n",
      "a:\n- x\n- y\nb: z\n",
      "a:\n  - x\n  - y\nb: z\n",
      "containers:\n- name: n\n  args:\n  - --lr\n  - \"0.1\"\n  env:\n  - name: A\n    value: b\n",
      "- a: 1\n  b: 2\n- c\n-   d: 4\n    e: 5\n",
      "a:\nb:\n",
      "a: # note\n  b: 1\n",
      "a:   \nb: 2   # trailing\n",
      "'a b': 'c: d'\n\"e\": \"f # g\"\n",
      "key with spaces: value, with, commas\nurl: http://x:80/y#z\n",
      "a: -1\nb: --flag\nc: a:b\nd: 0644\ne: true\nf: ~\n",
      "a: 1\n---\nb: 2\n",
      "---\na: 1\n---\n",
      "--- # first\na: 1\n...x: 2\n",
      "---\n---\n",
      "a: 1\n\n\n# c\n   # c\nb:\n\n  c: 2\n",
      "  a: 1\n  b:\n  - 2\n",
      "a:\n  - b:\n    - c\n    d: e\n",
      "x:\n  y: \"\"\n  z: ''\n",
      "torch: {}\nemptyDir: {  }\nargs: []\n",
      "command: [\"sh\", \"-c\", 'echo x']  # flow\nlist: [a b,c ,  d]\n",
      "- [a, b]\n- {k: v, \"q\": 'w'}\n",
  };
  for (const std::string text : cases)
    check_same_as_libyaml(text);
}

TEST_CASE("block subset: other YAML is left to libyaml") {
  const char* const cases[] = {
      "a: &x 1\nb: *x\n", "a: !!str 1\n",    "a: |\n  text\n",   "a: >\n  text\n",
      "a: b\n  c\n",      "a: \"x\\ny\"\n",  "a: 'it''s'\n",     "a: \"open\n",
      "a:\tb\n",          "a: b\r\n",        "a: caf\xc3\xa9\n", "%YAML 1.1\n---\na: 1\n",
      "a: 1\n...\n",      "- - a\n",         "-\n  a: 1\n",      "a:\n  text\n",
      "a: b: c\n",        "a: 1\n b: 2\n",   "<<:\n  a: 1\n",    "? a\n: b\n",
      "{\"a\": 1}\n",     "--- a\n",         "a: -\n",           "a: 1\n- b\n",
      "a: [b, [c]]\n",    "a: [b,\n  c]\n",  "a: [b, ]\n",       "a: [b: c]\n",
      "a: {b}\n",         "a: [http://x]\n", "a: [b] c\n",       "a: [b #c]\n",
  };
  for (const std::string text : cases) {
    CAPTURE(text);
    CHECK_FALSE(block_subset_events(text).has_value());
  }
}

TEST_CASE("block subset: every YAML file of the repository reads the same both ways") {
  const std::filesystem::path root = TRAINJOB_SOURCE_DIR;
  int read_fast = 0;
  int runtime_files = 0;
  int runtimes_read_fast = 0;
  for (const char* dir : {"testdata", "runtimes", "templates"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".yaml" && extension != ".yml")) continue;
      bool is_runtime = std::string(dir) == "runtimes";
      runtime_files += is_runtime;
      std::string text = read_file(entry.path());
      CAPTURE(entry.path().string());
      std::optional<std::string> fast = block_subset_events(text);
      if (!fast) continue;
      CHECK(*fast == libyaml_events(text));
      ++read_fast;
      runtimes_read_fast += is_runtime;
    }
  }
  // The runtimes are plain manifests: all of them must be in the subset.
  CHECK(runtimes_read_fast == runtime_files);
  CHECK(read_fast >= 100);
  MESSAGE(read_fast << " files read without libyaml");
}

}  // namespace
}  // namespace trainjob
