// `kubectl trainjob krm`: the ResourceList, the function configuration, the results, and
// the function as a whole on small inputs.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "krm/krm_annotations.h"
#include "krm/krm_config.h"
#include "krm/krm_function.h"
#include "krm/krm_results.h"
#include "krm/resource_list.h"
#include "load/yaml_loader.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

Document load_one(const std::string& text) {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("list.yaml", text, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  REQUIRE(documents.size() == 1);
  return documents[0];
}

/// A TrainJob of the embedded torch-distributed runtime, read from `path` as document `index`.
std::string trainjob_item(const std::string& name, const std::string& path, int index,
                          int num_nodes = 2) {
  return "- apiVersion: trainer.kubeflow.org/v1alpha1\n"
         "  kind: TrainJob\n"
         "  metadata:\n"
         "    name: " +
         name +
         "\n"
         "    annotations:\n"
         "      config.kubernetes.io/path: '" +
         path +
         "'\n"
         "      config.kubernetes.io/index: '" +
         std::to_string(index) +
         "'\n"
         "      internal.config.kubernetes.io/path: '" +
         path +
         "'\n"
         "      internal.config.kubernetes.io/index: '" +
         std::to_string(index) +
         "'\n"
         "      config.k8s.io/id: '7'\n"
         "  spec:\n"
         "    runtimeRef:\n"
         "      name: torch-distributed\n"
         "    trainer:\n"
         "      image: example/train:1\n"
         "      numNodes: " +
         std::to_string(num_nodes) + "\n";
}

const char kConfigMapItem[] =
    "- apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata:\n"
    "    name: other\n"
    "    annotations:\n"
    "      config.kubernetes.io/path: 'jobs/a.yaml'\n"
    "      config.kubernetes.io/index: '1'\n"
    "      config.k8s.io/id: '8'\n"
    "  data: {z: '1', a: '2'}\n";

std::string resource_list(const std::string& items, const std::string& config = "") {
  return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items + config;
}

Json run(const std::string& input, Diagnostics* diagnostics) {
  RealFileSystem fs;
  std::string out = run_krm_function({input, ""}, fs, diagnostics);
  return load_one(out).value;
}

TEST_CASE("krm: a ResourceList's items become documents named by their source") {
  Document list = load_one(resource_list(trainjob_item("a", "jobs/a.yaml", 0) +
                                         "- {apiVersion: v1, kind: Secret, metadata: {name: s}}\n"
                                         "- 3\n"));
  Diagnostics diagnostics;
  std::vector<Document> items = resource_list_items(list, &diagnostics);
  REQUIRE(items.size() == 2);
  CHECK(items[0].file == "jobs/a.yaml[0]");
  CHECK(items[1].file == "items[1]");
  CHECK(items[1].index == 1);
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].path == "items[2]");
  CHECK(diagnostics.all()[0].pos.line == 21);
  CHECK(is_resource_list(list));
  CHECK_FALSE(looks_like_json("apiVersion: v1"));
  CHECK(looks_like_json("\n  {\"apiVersion\": \"v1\"}"));
}

TEST_CASE("krm: a ResourceList is written as YAML or JSON, results only when there are any") {
  Json item = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "x"}}}};
  std::string yaml =
      format_resource_list("config.kubernetes.io/v1",
                           std::vector<OutputItem>{OutputItem{&item, ""}}, Json::array(), false);
  CHECK(yaml ==
        "apiVersion: config.kubernetes.io/v1\n"
        "kind: ResourceList\n"
        "items:\n"
        "- apiVersion: v1\n"
        "  kind: ConfigMap\n"
        "  metadata:\n"
        "    name: x\n");
  Json results = Json::array({{{"message", "m"}, {"severity", "info"}}});
  Json back = Json::parse(format_resource_list(
      "config.kubernetes.io/v1", std::vector<OutputItem>{OutputItem{&item, ""}}, results, true));
  CHECK(back["items"][0] == item);
  CHECK(back["results"] == results);
  CHECK(format_resource_list("config.kubernetes.io/v1", {}, Json::array(), false) ==
        "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n");
}

TEST_CASE("krm: items that pass through are copied as the input wrote them") {
  std::string text =
      "apiVersion: config.kubernetes.io/v1\n"
      "kind: ResourceList\n"
      "items:\n"
      "- apiVersion: v1 # first\n"
      "  kind: ConfigMap\n"
      "  data: {x: \"1\"}\n"
      "# between\n"
      "- # the second\n"
      "  {apiVersion: v1, kind: Secret}\n"
      "functionConfig:\n"
      "  kind: X\n";
  Document list = load_one(text);
  std::vector<std::string_view> texts = item_texts(list, text);
  REQUIRE(texts.size() == 2);
  CHECK(texts[0] == "- apiVersion: v1 # first\n  kind: ConfigMap\n  data: {x: \"1\"}\n# between\n");
  CHECK(texts[1] == "- # the second\n  {apiVersion: v1, kind: Secret}\n");
  Json value = list.value["items"][0];
  std::string out = format_resource_list("config.kubernetes.io/v1",
                                         std::vector<OutputItem>{OutputItem{&value, texts[0]}},
                                         Json::array(), false);
  CHECK(out.find(texts[0]) != std::string::npos);

  // Entries indented under `items:` would not mix with ours: no texts at all.
  std::string indented =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n  - kind: A\n";
  CHECK(item_texts(load_one(indented), indented).empty());
}

TEST_CASE("krm: the function configuration, any kind or a ConfigMap's data") {
  RenderRequest request;
  Diagnostics diagnostics;
  read_krm_config(load_one("apiVersion: kubectl-trainjob/v1\nkind: TrainJobRenderer\n"
                           "metadata: {name: r}\nnamespace: ml\ntrainerVersion: '2.1'\n"
                           "target: jobs\ngenerateSecrets: true\n"),
                  "", &request, &diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(request.compile.default_namespace == "ml");
  CHECK(request.compile.dialect == Dialect::kV2_1);
  CHECK(request.compile.generate_secrets);
  CHECK(request.compile.render_target == RenderTarget::kJobs);

  RenderRequest jobset;
  read_krm_config(load_one("apiVersion: kubectl-trainjob/v1\nkind: TrainJobRenderer\n"
                           "metadata: {name: r}\ntarget: jobset\n"),
                  "", &jobset, &diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(jobset.compile.render_target == RenderTarget::kJobSet);

  RenderRequest from_map;
  read_krm_config(load_one("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
                           "data: {namespace: team, generateSecrets: 'true'}\n"),
                  "", &from_map, &diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(from_map.compile.default_namespace == "team");
  CHECK(from_map.compile.generate_secrets);
}

TEST_CASE("krm: configuration mistakes are errors at their field") {
  RenderRequest request;
  Diagnostics diagnostics;
  Document list = load_one(resource_list("- {apiVersion: v1, kind: A}\n",
                                         "functionConfig:\n"
                                         "  apiVersion: kubectl-trainjob/v1\n"
                                         "  kind: TrainJobRenderer\n"
                                         "  namespaces: ml\n"
                                         "  trainerVersion: 2.3\n"
                                         "  target: jobsets\n"
                                         "  generateSecrets: 'yes'\n"));
  read_krm_config(list, "functionConfig", &request, &diagnostics);
  diagnostics.sort();
  const std::vector<Diagnostic>& all = diagnostics.all();
  REQUIRE(all.size() == 4);
  CHECK(all[0].path == "functionConfig.namespaces");
  CHECK(all[0].pos.line == 8);
  CHECK(all[0].pos.column == 3);
  CHECK(all[0].message.find("unknown option \"namespaces\"") == 0);
  CHECK(all[1].path == "functionConfig.trainerVersion");
  CHECK(all[1].message.find("expected a string") == 0);
  CHECK(all[2].path == "functionConfig.target");
  CHECK(all[2].message == "expected one of jobs, jobset, found \"jobsets\"");
  CHECK(all[3].path == "functionConfig.generateSecrets");

  Diagnostics map_diagnostics;
  read_krm_config(load_one("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
                           "data: {namespace: Team}\nbinaryData: {}\n"),
                  "", &request, &map_diagnostics);
  map_diagnostics.sort();
  REQUIRE(map_diagnostics.all().size() == 2);
  CHECK(map_diagnostics.all()[0].path == "data.namespace");
  CHECK(map_diagnostics.all()[1].path == "binaryData");
}

TEST_CASE("krm: a finding names its resource, field and file") {
  Json item = {
      {"apiVersion", "trainer.kubeflow.org/v1alpha1"},
      {"kind", "TrainJob"},
      {"metadata",
       {{"name", "a"},
        {"namespace", "ml"},
        {"annotations", {{kKrmPathAnnotation, "jobs/a.yaml"}, {kKrmIndexAnnotation, "2"}}}}}};
  Json config = {{"kind", "TrainJobRenderer"}, {"metadata", {{"name", "r"}}}};
  ResultSubjects subjects = {{"jobs/a.yaml[2]", {&item, ""}},
                             {"STDIN", {&config, "functionConfig"}}};
  std::vector<Diagnostic> diagnostics = {
      {Severity::kError, "jobs/a.yaml[2]", {}, "spec.trainer.numNodes", "expected an integer"},
      {Severity::kWarning, "STDIN", {4, 3}, "functionConfig.target", "odd"},
      {Severity::kError, "<embedded>/runtimes/x.yaml", {}, "", "broken"},
  };
  Json results = krm_results(diagnostics, subjects);
  REQUIRE(results.size() == 3);
  CHECK(results[0] == Json::parse(R"({"message": "expected an integer", "severity": "error",
      "resourceRef": {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
                      "name": "a", "namespace": "ml"},
      "field": {"path": "spec.trainer.numNodes"},
      "file": {"path": "jobs/a.yaml", "index": 2}})"));
  CHECK(results[1]["message"] == "odd");
  CHECK(results[1]["severity"] == "warning");
  CHECK(results[1]["field"]["path"] == "target");
  CHECK(results[1]["resourceRef"] == Json::parse(R"({"kind": "TrainJobRenderer", "name": "r"})"));
  CHECK(results[2] == Json::parse(R"({"message": "<embedded>/runtimes/x.yaml: broken",
                                      "severity": "error"})"));
}

TEST_CASE("krm: TrainJobs are replaced in their file, other items pass through") {
  Diagnostics diagnostics;
  Json out = run(resource_list(trainjob_item("a", "jobs/a.yaml", 0) + kConfigMapItem,
                               "functionConfig: {apiVersion: kubectl-trainjob/v1, "
                               "kind: TrainJobRenderer, namespace: ml}\n"),
                 &diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK_FALSE(out.contains("results"));
  const Json& items = out["items"];
  REQUIRE(items.size() >= 3);
  // The Service and the Job(s) take index 0.., the ConfigMap follows them.
  for (size_t i = 0; i < items.size(); ++i) {
    const Json& annotations = items[i]["metadata"]["annotations"];
    CHECK(annotations[kKrmPathAnnotation] == "jobs/a.yaml");
    CHECK(annotations[kKrmInternalPathAnnotation] == "jobs/a.yaml");
    CHECK(annotations[kKrmIndexAnnotation] == std::to_string(i));
    CHECK(annotations[kKrmInternalIndexAnnotation] == std::to_string(i));
    CHECK_FALSE(annotations.contains(kKrmLegacyIdAnnotation) != (i + 1 == items.size()));
    if (i + 1 < items.size()) CHECK(items[i]["metadata"]["namespace"] == "ml");
  }
  const Json& config_map = items.back();
  CHECK(config_map["kind"] == "ConfigMap");
  CHECK(config_map["data"].begin().key() == "z");  // passed through in its own key order
  CHECK(items[0]["kind"] == "Service");
  CHECK(items[1]["kind"] == "Job");
  CHECK(items[1]["metadata"]["name"] == "a-node-0");
}

TEST_CASE("krm: an error fails the function and gives the items back unchanged") {
  Diagnostics diagnostics;
  std::string input = resource_list(trainjob_item("a", "jobs/a.yaml", 0, 0) + kConfigMapItem);
  Json out = run(input, &diagnostics);
  CHECK(diagnostics.has_errors());
  CHECK(out["items"] == load_one(input).value["items"]);
  REQUIRE(out["results"].size() >= 1);
  const Json& result = out["results"][0];
  CHECK(result["severity"] == "error");
  CHECK(result["field"]["path"] == "spec.trainer.numNodes");
  CHECK(result["file"] == Json::parse(R"({"path": "jobs/a.yaml", "index": 0})"));
  CHECK(result["resourceRef"]["name"] == "a");
}

TEST_CASE("krm: the exec plugin form reads and writes a plain stream") {
  Diagnostics diagnostics;
  RealFileSystem fs;
  std::string input =
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: b\n"
      "  namespace: ml\n  annotations:\n    kustomize.config.k8s.io/id: |\n      kind: TrainJob\n"
      "spec:\n  runtimeRef: {name: torch-distributed}\n  trainer: {image: x, numNodes: 1}\n"
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n";
  std::string out = run_krm_function({input, ""}, fs, &diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  std::vector<Document> documents = load_documents("out", out, &diagnostics);
  REQUIRE(documents.size() >= 3);
  CHECK(documents[0].kind() == "Service");
  CHECK(documents.back().name() == "keep");
  CHECK(out.find("kustomize.config.k8s.io/id") == std::string::npos);
  CHECK(out.find("config.kubernetes.io/path") == std::string::npos);

  Diagnostics missing;
  CHECK(run_krm_function({input, "/nonexistent/config.yaml"}, fs, &missing).empty());
  CHECK(missing.has_errors());
}

}  // namespace
}  // namespace trainjob
