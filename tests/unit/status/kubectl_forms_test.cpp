// kubectl's forms on the cluster commands: TYPE/NAME words, -A's collection paths, the
// jobs `delete -f` reads from a file, and the runtime names "did you mean" offers.
#include <algorithm>
#include <set>

#include <doctest/doctest.h>

#include "kube/resources.h"
#include "load/yaml_loader.h"
#include "model/embedded_runtimes.h"
#include "model/runtime_registry.h"
#include "status/trainjob_names.h"
#include "status/trainjob_objects.h"

namespace {

using trainjob::Document;
using trainjob::find_managed_kind;
using trainjob::parse_trainjob_target;
using trainjob::TrainJobTarget;

std::vector<Document> load_forms_yaml(const std::string& yaml) {
  trainjob::Diagnostics diagnostics;
  std::vector<Document> documents = trainjob::load_documents("jobs.yaml", yaml, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  return documents;
}

TEST_CASE("kubectl's resource words name the kinds we manage") {
  for (const char* word :
       {"trainjob", "trainjobs", "TrainJob", "TRAINJOBS", "trainjobs.trainer.kubeflow.org",
        "trainjob.v1alpha1.trainer.kubeflow.org"}) {
    const trainjob::ManagedKind* kind = find_managed_kind(word);
    REQUIRE_MESSAGE(kind != nullptr, word);
    CHECK(kind->kind == "TrainJob");
  }
  CHECK(find_managed_kind("pytorchjobs")->kind == "PyTorchJob");
  CHECK(find_managed_kind("PyTorchJob.kubeflow.org")->kind == "PyTorchJob");
  CHECK(find_managed_kind("tfjob.v1.kubeflow.org")->kind == "TFJob");
  CHECK(find_managed_kind("mpijobs")->kind == "MPIJob");
  CHECK(find_managed_kind("xgboostjob")->kind == "XGBoostJob");
  CHECK(find_managed_kind("paddlejobs")->kind == "PaddleJob");
  CHECK(find_managed_kind("jaxjob")->kind == "JAXJob");
  // Another group, a kind we do not manage, a half-written group: none.
  CHECK(find_managed_kind("trainjobs.kubeflow.org") == nullptr);
  CHECK(find_managed_kind("deployment") == nullptr);
  CHECK(find_managed_kind("pytorchjob.v1.x.kubeflow.org") == nullptr);
  CHECK(find_managed_kind("pytorchjob.") == nullptr);
}

TEST_CASE("NAME, TYPE/NAME and TYPE NAME") {
  std::string error;
  std::optional<TrainJobTarget> target = parse_trainjob_target({"tune"}, &error);
  REQUIRE(target);
  CHECK(target->name == "tune");
  CHECK(target->kind == nullptr);
  target = parse_trainjob_target({"pytorchjob/tune"}, &error);
  REQUIRE(target);
  CHECK(target->name == "tune");
  CHECK(target->kind->kind == "PyTorchJob");
  target = parse_trainjob_target({"trainjobs", "tune"}, &error);
  REQUIRE(target);
  CHECK(target->kind->kind == "TrainJob");
  CHECK(target->name == "tune");
}

TEST_CASE("a TYPE we do not manage, or a malformed one, is an error that says what is accepted") {
  std::string error;
  CHECK_FALSE(parse_trainjob_target({"deployment/foo"}, &error));
  CHECK(error.find("\"deployment\" is not one kubectl trainjob manages") != std::string::npos);
  CHECK(error.find("trainjob, pytorchjob, tfjob, xgboostjob, paddlejob, jaxjob, mpijob") !=
        std::string::npos);
  CHECK_FALSE(parse_trainjob_target({"tfjb/foo"}, &error));
  CHECK(error.find("did you mean \"tfjob\"") != std::string::npos);
  CHECK_FALSE(parse_trainjob_target({"trainjob/"}, &error));
  CHECK_FALSE(parse_trainjob_target({"/tune"}, &error));
  CHECK_FALSE(parse_trainjob_target({"trainjob/a/b"}, &error));
  CHECK_FALSE(parse_trainjob_target({"trainjob", "trainjob/tune"}, &error));
  CHECK(error.find("no need to give the resource type") != std::string::npos);
  CHECK_FALSE(parse_trainjob_target({"trainjob/tune", "extra"}, &error));
  CHECK(error.find("no need to give the resource type") != std::string::npos);
  CHECK_FALSE(parse_trainjob_target({"service", "tune"}, &error));
}

TEST_CASE("-A lists a namespaced kind over every namespace") {
  CHECK(trainjob::collection_path(trainjob::job_type(), "") == "/apis/batch/v1/jobs");
  CHECK(trainjob::collection_path(trainjob::pod_type(), "") == "/api/v1/pods");
  CHECK(trainjob::collection_path(trainjob::job_type(), "ns") ==
        "/apis/batch/v1/namespaces/ns/jobs");
}

TEST_CASE("delete -f: the jobs a file describes, in their namespaces") {
  std::vector<Document> documents = load_forms_yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: a}\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: code}\n---\n"
      "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: b, namespace: team}\n");
  std::string error;
  std::vector<trainjob::DescribedTrainJob> jobs =
      trainjob::described_trainjobs(documents, "default", false, &error);
  REQUIRE(jobs.size() == 2);
  CHECK(error.empty());
  CHECK((jobs[0].name_space == "default" && jobs[0].name == "a" && jobs[0].kind == "TrainJob"));
  CHECK((jobs[1].name_space == "team" && jobs[1].name == "b" && jobs[1].kind == "PyTorchJob"));
  // -n against the namespace written in the file: refused, as kubectl refuses it.
  CHECK(trainjob::described_trainjobs(documents, "default", true, &error).empty());
  CHECK(error.find("does not match -n \"default\"") != std::string::npos);
  error.clear();
  CHECK(trainjob::described_trainjobs({documents[1]}, "default", false, &error).empty());
  CHECK(error.find("describe no TrainJob") != std::string::npos);
}

TEST_CASE("delete -f: an OptimizationJob in a file is one job to delete (its trials)") {
  std::vector<Document> documents = load_forms_yaml(
      "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: OptimizationJob\nmetadata: {name: s}\n");
  std::string error;
  std::vector<trainjob::DescribedTrainJob> jobs =
      trainjob::described_trainjobs(documents, "ml", false, &error);
  REQUIRE(jobs.size() == 1);
  CHECK((jobs[0].name_space == "ml" && jobs[0].name == "s" && jobs[0].kind == "OptimizationJob"));
}

TEST_CASE("runtime names for did-you-mean include the embedded runtimes a render left unparsed") {
  trainjob::RuntimeRegistry registry;
  trainjob::Diagnostics diagnostics;
  std::set<std::string> only = {"torch-distributed"};
  registry.add_layer("the inputs",
                     load_forms_yaml("apiVersion: trainer.kubeflow.org/v1alpha1\n"
                                     "kind: TrainingRuntime\nmetadata: {name: mine, namespace: "
                                     "team}\nspec: {}\n"));
  trainjob::add_embedded_runtimes(&registry, &diagnostics, &only);
  std::vector<std::string> cluster = registry.names(trainjob::kClusterTrainingRuntime, "team");
  CHECK(std::find(cluster.begin(), cluster.end(), "jax-distributed") != cluster.end());
  CHECK(std::find(cluster.begin(), cluster.end(), "mine") == cluster.end());
  CHECK(registry.names(trainjob::kTrainingRuntime, "team") == std::vector<std::string>{"mine"});
  CHECK(registry.names(trainjob::kTrainingRuntime, "other").empty());
}

}  // namespace
