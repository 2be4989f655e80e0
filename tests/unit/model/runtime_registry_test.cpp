// Which runtime a TrainJob of a given Trainer release compiles against, and which release
// a TrainJob is read as.
#include "model/runtime_registry.h"

#include <doctest/doctest.h>

#include "embed/embedded.h"
#include "load/yaml_loader.h"
#include "model/embedded_runtimes.h"
#include "model/runtime_policy.h"
#include "model/trainjob.h"

namespace {

using trainjob::Dialect;
using trainjob::DialectRange;
using trainjob::Document;

std::vector<Document> load(const std::string& yaml) {
  trainjob::Diagnostics diagnostics;
  std::vector<Document> documents = trainjob::load_documents("test.yaml", yaml, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  return documents;
}

std::string runtime(const std::string& name, const std::string& policy, const std::string& image) {
  return "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\n"
         "metadata: {name: " +
         name + "}\nspec:\n  mlPolicy: {" + policy +
         "}\n  template: {spec: {replicatedJobs: [{name: node, template: {spec: {template: "
         "{spec: {containers: [{name: node, image: " +
         image + "}]}}}}}]}}\n";
}

std::string image_of(const trainjob::Runtime* found) {
  REQUIRE(found != nullptr);
  return found->document->value["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]
                               ["template"]["spec"]["containers"][0]["image"];
}

std::optional<Dialect> dialect_of(const std::string& spec, std::optional<Dialect> forced = {}) {
  std::vector<Document> documents = load(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: t}\n"
      "spec:\n  runtimeRef: {name: torch-distributed}\n" +
      spec);
  return trainjob::trainjob_dialect(documents[0], forced);
}

}  // namespace

TEST_CASE("dialect ranges: contains, intersect, without, text") {
  DialectRange all;
  DialectRange old{Dialect::kV2_0, Dialect::kV2_1};
  DialectRange recent{Dialect::kV2_2, Dialect::kV2_4};
  CHECK(all.contains(Dialect::kV2_0));
  CHECK_FALSE(old.contains(Dialect::kV2_2));
  CHECK(all.text() == "2.0-2.4");
  CHECK(DialectRange{Dialect::kV2_1, Dialect::kV2_1}.text() == "2.1");
  CHECK(all.without(old).text() == "2.2-2.4");
  CHECK(all.without({Dialect::kV2_4, Dialect::kV2_4}).text() == "2.0-2.3");
  CHECK(all.without(recent).text() == "2.0-2.1");
  CHECK(old.without(all).empty());
  CHECK(old.without(recent).text() == "2.0-2.1");
  // A hole in the middle leaves the span whole: lookup still takes earlier layers first.
  CHECK(all.without({Dialect::kV2_1, Dialect::kV2_2}).text() == "2.0-2.4");
  CHECK(old.intersect(recent).empty());
  CHECK(old.intersect(recent).text() == "none");
}

TEST_CASE("runtime policies and the releases that know them") {
  CHECK(trainjob::runtime_policy(load(runtime("a", "torch: {}", "i"))[0]) == "torch");
  CHECK(trainjob::runtime_policy(load(runtime("a", "numNodes: 1, jax: {}", "i"))[0]) == "jax");
  CHECK(trainjob::runtime_policy(load(runtime("a", "numNodes: 1", "i"))[0]) == "plainml");
  CHECK(trainjob::policy_releases("xgboost").text() == "2.2-2.4");
  CHECK(trainjob::policy_releases("mpi").text() == "2.0-2.4");
}

TEST_CASE("registry: a shipped runtime serves its layer's releases that know its policy") {
  trainjob::RuntimeRegistry registry;
  registry.add_layer("old", load(runtime("torch-distributed", "torch: {}", "old-image")),
                     DialectRange{Dialect::kV2_0, Dialect::kV2_1});
  registry.add_layer("current",
                     load(runtime("torch-distributed", "torch: {}", "new-image") + "---\n" +
                          runtime("jax-distributed", "jax: {}", "jax")),
                     DialectRange{});
  const std::string cluster = trainjob::kClusterTrainingRuntime;
  CHECK(image_of(registry.find(cluster, "torch-distributed", "", Dialect::kV2_0)) == "old-image");
  CHECK(image_of(registry.find(cluster, "torch-distributed", "", Dialect::kV2_1)) == "old-image");
  CHECK(image_of(registry.find(cluster, "torch-distributed", "", Dialect::kV2_2)) == "new-image");
  CHECK(image_of(registry.find(cluster, "torch-distributed", "", Dialect::kV2_3)) == "new-image");
  // The later form does not claim the releases the earlier one serves.
  std::vector<trainjob::Runtime> all = registry.all();
  REQUIRE(all.size() == 3);
  CHECK(all[0].releases.text() == "2.0-2.1");
  CHECK(all[1].document->name() == "jax-distributed");
  CHECK(all[1].releases.text() == "2.2-2.4");
  CHECK(all[2].releases.text() == "2.2-2.4");
  // No v2.1 controller runs the jax policy.
  CHECK(registry.find(cluster, "jax-distributed", "", Dialect::kV2_1) == nullptr);
  const trainjob::Runtime* any = registry.find_any_release(cluster, "jax-distributed", "");
  REQUIRE(any != nullptr);
  CHECK(any->releases.text() == "2.2-2.4");
  CHECK(registry.find_any_release(cluster, "missing", "") == nullptr);
  CHECK(registry.searched_places() == "old, current");
}

TEST_CASE("registry: a user's runtime serves every release and shadows the built-in ones") {
  trainjob::RuntimeRegistry registry;
  registry.add_layer("the inputs", load(runtime("jax-distributed", "jax: {}", "mine")));
  registry.add_layer("the embedded runtimes", load(runtime("jax-distributed", "jax: {}", "x")),
                     DialectRange{});
  const std::string cluster = trainjob::kClusterTrainingRuntime;
  CHECK(image_of(registry.find(cluster, "jax-distributed", "", Dialect::kV2_0)) == "mine");
  CHECK(image_of(registry.find(cluster, "jax-distributed", "", Dialect::kV2_3)) == "mine");
  CHECK(registry.all()[1].releases.empty());
}

TEST_CASE("embedded runtimes: every one loads, and each name serves every release once") {
  trainjob::RuntimeRegistry registry;
  trainjob::Diagnostics diagnostics;
  trainjob::add_embedded_runtimes(&registry, &diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(registry.all().size() == trainjob::embedded_runtimes().size());
  CHECK(registry.searched_places() == "the embedded runtimes");
  const std::string cluster = trainjob::kClusterTrainingRuntime;
  for (const char* name :
       {"torch-distributed", "torch-distributed-with-cache", "torchtune-llama3.2-1b",
        "torchtune-llama3.2-3b", "torchtune-qwen2.5-1.5b"}) {
    CAPTURE(name);
    const trainjob::Runtime* v21 = registry.find(cluster, name, "", Dialect::kV2_1);
    const trainjob::Runtime* v23 = registry.find(cluster, name, "", Dialect::kV2_3);
    REQUIRE(v21 != nullptr);
    REQUIRE(v23 != nullptr);
    CHECK(v21->document->file == std::string("built-in runtime ") + name +
                                     " (`kubectl trainjob runtimes get " + name +
                                     " --trainer-version 2.1`)");
    CHECK(v23->document->file == std::string("built-in runtime ") + name +
                                     " (`kubectl trainjob runtimes get " + name + "`)");
    CHECK(registry.find(cluster, name, "", Dialect::kV2_0) == v21);
    CHECK(registry.find(cluster, name, "", Dialect::kV2_2) == v23);
  }
  CHECK(registry.find(cluster, "xgboost-distributed", "", Dialect::kV2_1) == nullptr);
  CHECK(registry.find(cluster, "cpp-trainer", "", Dialect::kV2_0) != nullptr);
  CHECK(registry.find(cluster, "cpp-trainer", "", Dialect::kV2_3) != nullptr);
  // Trainer v2.4 ships the v2.3 runtimes unchanged.
  for (const char* name : {"torch-distributed", "deepspeed-distributed", "mlx-distributed"}) {
    CAPTURE(name);
    CHECK(registry.find(cluster, name, "", Dialect::kV2_4) ==
          registry.find(cluster, name, "", Dialect::kV2_3));
    CHECK(registry.find(cluster, name, "", Dialect::kV2_4) != nullptr);
  }
  CHECK(registry.find(cluster, "cpp-trainer", "", Dialect::kV2_4) != nullptr);
  CHECK(registry.find(cluster, "xgboost-distributed", "", Dialect::kV2_4) != nullptr);
}

TEST_CASE("trainjob dialect: the newest release its fields and values allow") {
  CHECK(dialect_of("") == Dialect::kV2_4);
  CHECK(dialect_of("  trainer: {numProcPerNode: 2}\n") == Dialect::kV2_4);
  CHECK(dialect_of("  podTemplateOverrides: []\n") == Dialect::kV2_1);
  CHECK(dialect_of("  podSpecOverrides: []\n") == Dialect::kV2_0);
  CHECK(dialect_of("  labels: {a: b}\n") == Dialect::kV2_1);
  CHECK(dialect_of("  runtimePatches: []\n") == Dialect::kV2_4);
  CHECK(dialect_of("  activeDeadlineSeconds: 60\n") == Dialect::kV2_4);
  CHECK(dialect_of("  runtimePatches: []\n", Dialect::kV2_3) == Dialect::kV2_3);
  // A string numProcPerNode exists only in v2.0-v2.1 ...
  CHECK(dialect_of("  trainer: {numProcPerNode: auto}\n") == Dialect::kV2_1);
  CHECK(dialect_of("  trainer: {numProcPerNode: gpu}\n  podSpecOverrides: []\n") == Dialect::kV2_0);
  // ... but pins nothing that a field or the flag already decided: that release's checks
  // then refuse the value.
  CHECK(dialect_of("  trainer: {numProcPerNode: cpu}\n  runtimePatches: []\n") == Dialect::kV2_4);
  CHECK(dialect_of("  trainer: {numProcPerNode: auto}\n", Dialect::kV2_3) == Dialect::kV2_3);
  CHECK(dialect_of("  podTemplateOverrides: []\n  runtimePatches: []\n") == std::nullopt);
  CHECK(dialect_of("  runtimePatches: []\n", Dialect::kV2_4) == Dialect::kV2_4);
}
