#include "convert/yaml_edit.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "load/yaml_loader.h"

namespace trainjob {
namespace {

/// `text` edited to read as `after`; empty when the editor declined.
std::string edit(const std::string& text, const Json& after) {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("edit.yaml", text, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  REQUIRE(documents.size() == 1);
  std::vector<std::string_view> lines = split_lines(text);
  std::string out;
  if (!edit_yaml_document(documents[0], lines, 1, after, &out)) return "";
  return out;
}

Json parse(const std::string& text) {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("parse.yaml", text, &diagnostics);
  REQUIRE(documents.size() == 1);
  return documents[0].value;
}

const char* const kTrainJob =
    "# A comment at the top.\n"
    "apiVersion: trainer.kubeflow.org/v1alpha1\n"
    "kind: TrainJob\n"
    "metadata:\n"
    "  name: demo   # trailing comment\n"
    "spec:\n"
    "  runtimeRef:\n"
    "    name: torch-distributed\n"
    "  # the trainer\n"
    "  trainer:\n"
    "    numNodes: 2\n"
    "    numProcPerNode: auto\n"
    "  podTemplateOverrides:\n"
    "    - targetJobs:\n"
    "        - name: node\n"
    "      spec:\n"
    "        nodeSelector: {accelerator: t4}\n"
    "  suspend: true\n";

TEST_CASE("an unchanged document comes back byte for byte") {
  CHECK(edit(kTrainJob, parse(kTrainJob)) == kTrainJob);
}

TEST_CASE("a removed key goes, the rest keeps its comments") {
  Json after = parse(kTrainJob);
  after["spec"]["trainer"].erase("numProcPerNode");
  std::string out = edit(kTrainJob, after);
  CHECK(out.find("numProcPerNode") == std::string::npos);
  CHECK(out.find("# A comment at the top.\n") == 0);
  CHECK(out.find("  name: demo   # trailing comment\n") != std::string::npos);
  CHECK(out.find("  # the trainer\n  trainer:\n    numNodes: 2\n  podTemplateOverrides:") !=
        std::string::npos);
  CHECK(parse(out) == after);
}

TEST_CASE("a renamed key is written where the old one was, at its indentation") {
  Json after = parse(kTrainJob);
  Json spec = Json::object();
  for (const auto& entry : after["spec"].items()) {
    if (entry.key() == "podTemplateOverrides") {
      spec["runtimePatches"] = Json::array({{{"manager", "m"}}});
    } else {
      spec[entry.key()] = entry.value();
    }
  }
  after["spec"] = spec;
  std::string out = edit(kTrainJob, after);
  CHECK(
      out.find("    numProcPerNode: auto\n  runtimePatches:\n  - manager: m\n  suspend: true\n") !=
      std::string::npos);
  CHECK(parse(out) == after);
}

TEST_CASE("a new key in a nested mapping is added at that mapping's indentation") {
  Json after = parse(kTrainJob);
  after["spec"]["trainer"]["image"] = "busybox";
  std::string out = edit(kTrainJob, after);
  CHECK(out.find("    numProcPerNode: auto\n    image: busybox\n") != std::string::npos);
  CHECK(parse(out) == after);
}

TEST_CASE("flow and JSON documents are left to the caller") {
  std::string json = R"({"kind": "TrainJob", "spec": {"a": 1}})";
  Json after = parse(json);
  after["spec"]["a"] = 2;
  CHECK(edit(json, after).empty());
}

TEST_CASE("a mapping with a merge key is written out whole") {
  std::string text = "base: &b\n  x: 1\nspec:\n  <<: *b\n  y: 2\n";
  Json after = parse(text);
  after["spec"]["y"] = 3;
  std::string out = edit(text, after);
  CHECK(out == "base: &b\n  x: 1\nspec:\n  'y': 3\n  x: 1\n");
  CHECK(parse(out) == after);
}

TEST_CASE("emit_entry indents every line but empty ones") {
  CHECK(emit_entry("a", Json::array({1, 2}), 4) == "    a:\n    - 1\n    - 2\n");
  CHECK(emit_entry("s", "two\nlines\n", 2).find("  s: |") == 0);
}

}  // namespace
}  // namespace trainjob
