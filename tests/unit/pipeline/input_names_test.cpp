// Names from the input that become paths, and messages that quote hostile input.
#include "pipeline/input_names.h"

#include <doctest/doctest.h>

#include "load/yaml_loader.h"

namespace trainjob {
namespace {

Diagnostics findings_of(const std::string& yaml) {
  Diagnostics loading;
  std::vector<Document> documents = load_documents("in.yaml", yaml, &loading);
  REQUIRE(documents.size() == 1);
  Diagnostics found;
  check_input_names(documents[0], &found);
  return found;
}

TEST_CASE("input names: the API server's rules") {
  CHECK(is_dns1123_subdomain("a.b-c.d0"));
  CHECK(is_dns1123_subdomain(std::string(253, 'a')));
  CHECK_FALSE(is_dns1123_subdomain(std::string(254, 'a')));
  CHECK_FALSE(is_dns1123_subdomain("a..b"));
  CHECK_FALSE(is_dns1123_subdomain(".."));
  CHECK_FALSE(is_dns1123_subdomain("a/b"));
  CHECK_FALSE(is_dns1123_subdomain("-a"));
  CHECK_FALSE(is_dns1123_subdomain("A"));
  CHECK(is_config_map_key("train.sh"));
  CHECK(is_config_map_key(".hidden_File-1"));
  CHECK_FALSE(is_config_map_key("."));
  CHECK_FALSE(is_config_map_key(".."));
  CHECK_FALSE(is_config_map_key("a/b"));
  CHECK_FALSE(is_config_map_key(""));
  CHECK(is_kind_name("TrainJob"));
  CHECK(is_kind_name("V1Thing2"));
  CHECK_FALSE(is_kind_name("../../Foo"));
  CHECK_FALSE(is_kind_name("2Fast"));
}

TEST_CASE("input names: every document's path-bound names are checked at their field") {
  Diagnostics found = findings_of(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a/b\n  namespace: ../x\n"
      "data:\n  ok.sh: x\n  ../y: x\n");
  REQUIRE(found.all().size() == 3);
  CHECK(found.all()[0].path == "metadata.namespace");
  CHECK(found.all()[1].path == "metadata.name");
  CHECK(found.all()[2].path == "data[../y]");
  CHECK(found.all()[2].pos.line == 8);
}

TEST_CASE("input names: volumes anywhere in a pod spec, with their items and modes") {
  Diagnostics found = findings_of(
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  template:\n    spec:\n"
      "      volumes:\n      - name: Bad_Name\n        secret:\n          defaultMode: 4095\n"
      "          items:\n          - {key: k, path: a/../../b}\n"
      "      - name: p\n        projected:\n          sources:\n"
      "          - configMap: {name: c, items: [{key: k, path: /etc/x, mode: -1}]}\n");
  std::vector<std::string> paths;
  for (const Diagnostic& d : found.all())
    paths.push_back(d.path);
  CHECK(paths == std::vector<std::string>{
                     "spec.template.spec.volumes[0].name",
                     "spec.template.spec.volumes[0].secret.defaultMode",
                     "spec.template.spec.volumes[0].secret.items[0].path",
                     "spec.template.spec.volumes[1].projected.sources[0].configMap.items[0].mode",
                     "spec.template.spec.volumes[1].projected.sources[0].configMap.items[0].path",
                 });
}

TEST_CASE("input names: unknown kinds only need names that are path segments") {
  CHECK(
      findings_of("apiVersion: x/v1\nkind: Widget\nmetadata:\n  name: Any_Name:1\n").all().empty());
  CHECK(findings_of("apiVersion: x/v1\nkind: Widget\nmetadata:\n  name: '..'\n").all().size() == 1);
}

TEST_CASE("diagnostics: long runs of text are cut to a prefix and their length") {
  std::string name(100000, 'a');
  std::string cut = cut_long_runs("found \"" + name + "\" here");
  CHECK(cut == "found \"" + std::string(59, 'a') + "...[100002 bytes] here");
  CHECK(cut_long_runs("short words stay") == "short words stay");
  // A cut never splits a UTF-8 character.
  std::string wide;
  for (int i = 0; i < 100; ++i)
    wide += "\xC3\xA9";  // é
  CHECK(cut_long_runs("x" + wide + wide).substr(0, 62) == "x" + wide.substr(0, 58) + "...");
}

}  // namespace
}  // namespace trainjob
