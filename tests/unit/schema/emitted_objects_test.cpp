// Every object the golden cases expect `render` to print is a valid Kubernetes object:
// right types, required fields, no unknown fields (schemas/emitted/).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "load/yaml_loader.h"
#include "schema/structural_schema.h"

namespace fs = std::filesystem;
using trainjob::Json;
using trainjob::SchemaOptions;
using trainjob::SchemaSet;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const SchemaSet& emitted_schemas() {
  static const SchemaSet schemas = [] {
    SchemaOptions options;
    options.built_in_types = true;
    SchemaSet set(options);
    for (const auto& entry :
         fs::directory_iterator(fs::path(TRAINJOB_SOURCE_DIR) / "schemas/emitted")) {
      if (entry.path().extension() == ".json") {
        set.add(entry.path().stem().string(), trainjob::Schema::parse(read_text(entry.path())));
      }
    }
    return set;
  }();
  return schemas;
}

bool is_compiled_kind(const std::string& kind) {
  return kind == "Job" || kind == "Service" || kind == "PodGroup" || kind == "Workload" ||
         kind == "ConfigMap" || kind == "PersistentVolumeClaim" || kind == "JobSet";
}

std::string problems_text(const std::vector<trainjob::SchemaProblem>& problems) {
  std::string out;
  for (const auto& problem : problems)
    out += problem.path + ": " + problem.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("emitted objects: every object in the golden outputs matches its schema") {
  size_t checked = 0;
  size_t jobsets = 0;  // from the `render --target jobset` cases
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(TRAINJOB_SOURCE_DIR) / "testdata/render")) {
    if (entry.path().filename() != "expected.stdout") continue;
    trainjob::Diagnostics diagnostics;
    auto documents =
        trainjob::load_documents(entry.path().string(), read_text(entry.path()), &diagnostics);
    CHECK_MESSAGE(!diagnostics.has_errors(), entry.path());
    for (const auto& document : documents) {
      std::string name = trainjob::schema_name_for(document.api_version(), document.kind());
      if (!is_compiled_kind(document.kind())) continue;  // passed through unchanged
      REQUIRE_MESSAGE(emitted_schemas().has(name), name);
      auto problems = emitted_schemas().validate(document.value, name);
      std::string message =
          entry.path().string() + " " + document.name() + "\n" + problems_text(problems);
      CHECK_MESSAGE(problems.empty(), message);
      ++checked;
      if (document.kind() == "JobSet") ++jobsets;
    }
  }
  CHECK(checked > 100);
  CHECK(jobsets >= 10);
}

TEST_CASE("emitted objects: the schemas catch unknown fields, wrong types and missing fields") {
  Json job = Json::parse(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},
    "spec":{"parallelism":"2","completionMode":"Indexed","template":{"spec":{
      "containers":[{"name":"node","image":"x","volumeMount":[],"ports":[{"containerPort":29500}]}],
      "restartPolicy":"OnFailure"}}}})");
  auto problems = emitted_schemas().validate(job, "batch-v1-job");
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].path == "spec.parallelism");
  CHECK(problems[1].path == "spec.template.spec.containers[0].volumeMount");
  Json service = Json::parse(R"({"apiVersion":"v1","kind":"Service","metadata":{},
    "spec":{"clusterIP":"None","ports":[{"port":"http"}]}})");
  problems = emitted_schemas().validate(service, "v1-service");
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].path == "metadata.name");
  CHECK(problems[1].path == "spec.ports[0].port");
}

TEST_CASE("emitted objects: ConfigMaps take string data only") {
  Json good = Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"},
    "data":{"train.py":"print(1)\n"}})");
  CHECK(emitted_schemas().validate(good, "v1-configmap").empty());
  Json bad = Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"},
    "data":{"replicas":3},"binaryData":{"x":"not base64!"}})");
  CHECK(emitted_schemas().validate(bad, "v1-configmap").size() == 2);
}

TEST_CASE("emitted objects: the JobSet schema (JobSet v0.12 CRD) is closed and typed") {
  Json jobset = Json::parse(R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
    "metadata":{"name":"t"},"spec":{"suspend":"no","network":{"enableDNSHostName":true},
    "replicatedJobs":[{"name":"node","replicas":1,"dependsOn":[{"name":"x"}],
      "template":{"spec":{"template":{"spec":{"containers":[{"name":"node"}]}}}}}],
    "volumeClaimPolicies":[{"templates":[{"metadata":{"name":"initializer"},
      "spec":{"accessModes":["ReadWriteOnce"]}}]}]}})");
  auto problems = emitted_schemas().validate(jobset, "jobset.x-k8s.io-v1alpha2-jobset");
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].path == "spec.suspend");
  CHECK(problems[1].path == "spec.network.enableDNSHostName");
  CHECK(problems[2].path == "spec.replicatedJobs[0].dependsOn[0].status");
}
