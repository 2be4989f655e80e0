#include "legacy/api_match.h"

#include <string>

#include <doctest/doctest.h>

using trainjob::match_api_kind;

TEST_CASE("api match: the pairs we compile and others' kinds pass") {
  CHECK_FALSE(match_api_kind("trainer.kubeflow.org/v1alpha1", "TrainJob", "a.yaml"));
  CHECK_FALSE(match_api_kind("trainer.kubeflow.org/v1alpha1", "TrainingRuntime", "a.yaml"));
  CHECK_FALSE(match_api_kind("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime", ""));
  CHECK_FALSE(match_api_kind("kubeflow.org/v1", "PyTorchJob", "a.yaml"));
  CHECK_FALSE(match_api_kind("kubeflow.org/v1", "MPIJob", "a.yaml"));
  CHECK_FALSE(match_api_kind("kubeflow.org/v2beta1", "MPIJob", "a.yaml"));
  CHECK_FALSE(match_api_kind("v1", "ConfigMap", "a.yaml"));
  CHECK_FALSE(match_api_kind("batch/v1", "Job", "a.yaml"));
  // Another Kubeflow kind in the Training Operator's group is not ours to judge here.
  CHECK_FALSE(match_api_kind("kubeflow.org/v1beta1", "Experiment", "a.yaml"));
  // OptimizationJob is compiled too (lib/optimize); another spelling is refused.
  CHECK_FALSE(match_api_kind("trainer.kubeflow.org/v1alpha1", "OptimizationJob", "a.yaml"));
  auto misspelt = match_api_kind("trainer.kubeflow.org/v1alpha1", "Optimizationjob", "a.yaml");
  REQUIRE(misspelt);
  CHECK(misspelt->field == "kind");
  CHECK(misspelt->message.find("did you mean \"OptimizationJob\"") != std::string::npos);
  auto other_version = match_api_kind("trainer.kubeflow.org/v1", "OptimizationJob", "a.yaml");
  REQUIRE(other_version);
  CHECK(other_version->field == "apiVersion");
  CHECK_FALSE(match_api_kind("", "TrainJob", "a.yaml"));
}

TEST_CASE("api match: kubeflow.org/v2alpha1 names the released API and convert") {
  auto mismatch = match_api_kind("kubeflow.org/v2alpha1", "ClusterTrainingRuntime", "rt.yaml");
  REQUIRE(mismatch);
  CHECK(mismatch->field == "apiVersion");
  CHECK(mismatch->message.find("ClusterTrainingRuntime is served as "
                               "trainer.kubeflow.org/v1alpha1") != std::string::npos);
  CHECK(mismatch->message.find("kubectl trainjob convert --to 2.4 -f rt.yaml") !=
        std::string::npos);
  auto piped = match_api_kind("kubeflow.org/v2alpha1", "TrainJob", "STDIN");
  REQUIRE(piped);
  CHECK(piped->message.find("-f -`") != std::string::npos);
  auto item = match_api_kind("kubeflow.org/v2alpha1", "TrainJob", "jobs/a.yaml[2]");
  REQUIRE(item);
  CHECK(item->message.find("-f jobs/a.yaml`") != std::string::npos);
  auto unnamed = match_api_kind("kubeflow.org/v2alpha1", "TrainJob", "items[0]");
  REQUIRE(unnamed);
  CHECK(unnamed->message.find("-f FILE`") != std::string::npos);
}

TEST_CASE("api match: a kind of ours under another apiVersion") {
  auto trainjob = match_api_kind("kubeflow.org/v1", "TrainJob", "a.yaml");
  REQUIRE(trainjob);
  CHECK(trainjob->field == "apiVersion");
  CHECK(trainjob->message ==
        "TrainJob is served as trainer.kubeflow.org/v1alpha1, not kubeflow.org/v1: write "
        "apiVersion: trainer.kubeflow.org/v1alpha1");
  auto mpi = match_api_kind("kubeflow.org/v1alpha2", "MPIJob", "a.yaml");
  REQUIRE(mpi);
  CHECK(mpi->message.find("kubeflow.org/v1 or kubeflow.org/v2beta1, not kubeflow.org/v1alpha2") !=
        std::string::npos);
  auto pytorch = match_api_kind("trainer.kubeflow.org/v1alpha1", "PyTorchJob", "a.yaml");
  REQUIRE(pytorch);
  CHECK(pytorch->message.find("served as kubeflow.org/v1,") != std::string::npos);
}

TEST_CASE("api match: misspelt kinds get a did-you-mean") {
  auto trainjob = match_api_kind("trainer.kubeflow.org/v1alpha1", "Trainjob", "a.yaml");
  REQUIRE(trainjob);
  CHECK(trainjob->field == "kind");
  CHECK(trainjob->message ==
        "kind \"Trainjob\" is not a kind of trainer.kubeflow.org/v1alpha1; did you mean "
        "\"TrainJob\"?");
  auto pytorch = match_api_kind("kubeflow.org/v1", "PytorchJob", "a.yaml");
  REQUIRE(pytorch);
  CHECK(pytorch->message.find("did you mean \"PyTorchJob\"?") != std::string::npos);
  // A near miss within our groups, a different case anywhere (with where it is served).
  auto plural = match_api_kind("kubeflow.org/v1", "TFJobs", "a.yaml");
  REQUIRE(plural);
  CHECK(plural->message.find("did you mean \"TFJob\"?") != std::string::npos);
  auto elsewhere = match_api_kind("apps/v1", "trainjob", "a.yaml");
  REQUIRE(elsewhere);
  CHECK(elsewhere->message.find("did you mean \"TrainJob\" of trainer.kubeflow.org/v1alpha1?") !=
        std::string::npos);
  CHECK_FALSE(match_api_kind("apps/v1", "TrainJobs", "a.yaml"));
}

TEST_CASE("api match: any other kind of trainer.kubeflow.org") {
  auto other = match_api_kind("trainer.kubeflow.org/v1alpha1", "Experiment", "a.yaml");
  REQUIRE(other);
  CHECK(other->field == "kind");
  CHECK(other->message.find("the Trainer serves TrainJob, TrainingRuntime and "
                            "ClusterTrainingRuntime as trainer.kubeflow.org/v1alpha1") !=
        std::string::npos);
}
