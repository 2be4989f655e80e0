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
  // Kubernetes' own groups serve no custom kinds: a TrainJob there is a mistake too.
  auto core = match_api_kind("v1alpha1", "TrainJob", "a.yaml");
  REQUIRE(core);
  CHECK(core->field == "apiVersion");
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

TEST_CASE("api match: Kubeflow's other kinds of kubeflow.org and others' groups pass") {
  for (const char* kind : {"Notebook", "Profile", "PodDefault", "Experiment", "Trial", "Suggestion",
                           "ScheduledWorkflow", "Viewer", "PVCViewer"}) {
    CAPTURE(kind);
    CHECK_FALSE(match_api_kind("kubeflow.org/v1", kind, "a.yaml"));
    CHECK_FALSE(match_api_kind("kubeflow.org/v1beta1", kind, "a.yaml"));
    CHECK_FALSE(match_api_kind("kubeflow.org/v1alpha1", kind, "a.yaml"));
  }
  // PaddlePaddle's own operator serves a PaddleJob of its own group, with its own schema.
  CHECK_FALSE(match_api_kind("batch.paddlepaddle.org/v1", "PaddleJob", "a.yaml"));
  CHECK_FALSE(match_api_kind("example.com/v1", "TrainJob", "a.yaml"));
}

TEST_CASE("api match: training kinds under versions no release serves") {
  auto pytorch = match_api_kind("kubeflow.org/v1beta1", "PyTorchJob", "jobs/pt.yaml");
  REQUIRE(pytorch);
  CHECK(pytorch->field == "apiVersion");
  CHECK(pytorch->message ==
        "PyTorchJob is served as kubeflow.org/v1, not kubeflow.org/v1beta1: write apiVersion: "
        "kubeflow.org/v1, with cleanPodPolicy, backoffLimit, activeDeadlineSeconds, "
        "ttlSecondsAfterFinished under spec.runPolicy where older versions had them in spec; "
        "`kubectl trainjob convert -f jobs/pt.yaml` then moves it to a TrainJob");
  // No Trainer runtime runs a TFJob: no convert to offer.
  auto tf = match_api_kind("kubeflow.org/v1alpha2", "TFJob", "a.yaml");
  REQUIRE(tf);
  CHECK(tf->message.find("write apiVersion: kubeflow.org/v1,") != std::string::npos);
  CHECK(tf->message.find("convert") == std::string::npos);
  auto mpi = match_api_kind("kubeflow.org/v1alpha1", "MPIJob", "STDIN");
  REQUIRE(mpi);
  CHECK(mpi->message.find("write apiVersion: kubeflow.org/v1 or kubeflow.org/v2beta1,") !=
        std::string::npos);
  CHECK(mpi->message.find("convert -f -`") != std::string::npos);
}

TEST_CASE("api match: MXJob is refused under every version of kubeflow.org") {
  for (const char* version : {"kubeflow.org/v1", "kubeflow.org/v1beta1", "kubeflow.org/v1alpha1"}) {
    CAPTURE(version);
    auto mx = match_api_kind(version, "MXJob", "a.yaml");
    REQUIRE(mx);
    CHECK(mx->field == "kind");
    CHECK(mx->message.find(std::string("kind MXJob of ") + version + " is not supported") == 0);
    CHECK(mx->message.find("expected one of kubeflow.org/v1 PyTorchJob,") != std::string::npos);
    CHECK(mx->message.find("MXJob was removed in Training Operator v1.9") != std::string::npos);
  }
  CHECK_FALSE(match_api_kind("example.com/v1", "MXJob", "a.yaml"));
}
