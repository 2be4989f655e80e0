// KAI Scheduler's gang (render/kai.h): the one PodGroup render emits for the Jobs of a
// TrainJob or a legacy job whose pods name kai-scheduler, every pod joined to it, the queue
// label on the pods; and the warnings where KAI would not see the queue or the policy.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "legacy/legacy_compile.h"
#include "load/yaml_loader.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"
#include "render/compile.h"
#include "render/kai.h"

using namespace trainjob;

namespace {

const char* kKaiRuntime = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: kai}
spec:
  mlPolicy: {numNodes: 1, torch: {}}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  SCHEDULER
                  containers: [{name: node, image: trainer:1}]
)";

std::string kai_runtime(const std::string& scheduler_line) {
  std::string text = kKaiRuntime;
  text.replace(text.find("SCHEDULER"), 9, scheduler_line);
  return text;
}

const char* kKaiTrainJob = R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: tj
  labels: {kai.scheduler/queue: team-a}
spec:
  runtimeRef: {name: kai}
  trainer: {numNodes: 4}
)";

std::vector<Json> kai_compile(const std::string& text, Diagnostics* diagnostics) {
  std::vector<Document> documents = load_documents("kai.yaml", text, diagnostics);
  REQUIRE(documents.size() == 2);
  RuntimeRegistry registry;
  registry.add_layer("the inputs", documents);
  return compile_trainjob(documents[1], registry, {}, diagnostics);
}

const Json* kai_find_kind(const std::vector<Json>& objects, const std::string& kind) {
  for (const Json& object : objects) {
    if (object["kind"] == kind) return &object;
  }
  return nullptr;
}

bool kai_warned(const Diagnostics& diagnostics, const std::string& part) {
  for (const Diagnostic& d : diagnostics.all()) {
    if (d.message.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("kai: a TrainJob whose pods name kai-scheduler is one KAI gang") {
  Diagnostics diagnostics;
  std::vector<Json> objects =
      kai_compile(kai_runtime("schedulerName: kai-scheduler") + kKaiTrainJob, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  const Json* group = kai_find_kind(objects, "PodGroup");
  REQUIRE(group != nullptr);
  CHECK((*group)["apiVersion"] == kKaiPodGroupApiVersion);
  CHECK((*group)["metadata"]["name"] == "tj");
  CHECK((*group)["spec"]["minMember"] == 4);
  CHECK((*group)["spec"]["queue"] == "team-a");
  const Json* job = kai_find_kind(objects, "Job");
  REQUIRE(job != nullptr);
  CHECK((*job)["metadata"]["annotations"][kKaiSkipPodGrouperAnnotation] == "true");
  const Json& pod = (*job)["spec"]["template"]["metadata"];
  CHECK(pod["labels"][kKaiQueueLabel] == "team-a");
  CHECK(pod["annotations"][kKaiPodGroupAnnotation] == "tj");
  CHECK(pod["annotations"][kKaiSkipPodGrouperAnnotation] == "true");
}

TEST_CASE("kai: the queue label without kai-scheduler is a warning, and no PodGroup") {
  Diagnostics diagnostics;
  std::vector<Json> objects =
      kai_compile(kai_runtime("hostNetwork: false") + kKaiTrainJob, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  CHECK(kai_find_kind(objects, "PodGroup") == nullptr);
  CHECK(kai_warned(diagnostics, "no pod template sets schedulerName: kai-scheduler"));
}

TEST_CASE("kai: a PodGroup's queue falls back to KAI's default queue") {
  KaiGang gang{"tj", "tj-stage-1", "ns", kKaiDefaultQueue, "", 2};
  Json group = kai_pod_group(gang);
  CHECK(group["spec"]["queue"] == "default-queue");
  CHECK(group["metadata"]["namespace"] == "ns");
  CHECK(group["metadata"]["name"] == "tj-stage-1");
  CHECK(group["metadata"]["labels"][kTrainJobNameLabel] == "tj");  // delete finds it by the job
  CHECK_FALSE(group["spec"].contains("priorityClassName"));
  CHECK(kai_queue_label(Json::object()) == "");
  CHECK(kai_queue_label(Json{{kKaiQueueLabel, 7}}) == "");  // not a string: no queue
  CHECK(names_kai(Json{{"schedulerName", "kai-scheduler"}}));
  CHECK_FALSE(names_kai(Json{{"schedulerName", "volcano"}}));
}

TEST_CASE("kai: a PyTorchJob's Master and Worker Jobs join one gang of minAvailable") {
  const char* text = R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, labels: {kai.scheduler/queue: research}}
spec:
  runPolicy: {schedulingPolicy: {minAvailable: 2}}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {schedulerName: kai-scheduler, containers: [{name: pytorch, image: p:1}]}}
    Worker:
      replicas: 2
      template: {spec: {schedulerName: kai-scheduler, containers: [{name: pytorch, image: p:1}]}}
)";
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("pt.yaml", text, &diagnostics);
  REQUIRE(documents.size() == 1);
  std::vector<Json> objects = compile_legacy_job(documents[0], {}, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  const Json* group = kai_find_kind(objects, "PodGroup");
  REQUIRE(group != nullptr);
  CHECK((*group)["spec"]["minMember"] == 2);
  CHECK((*group)["spec"]["queue"] == "research");
  int joined = 0;
  for (const Json& object : objects) {
    if (object["kind"] != "Job") continue;
    const Json& pod = object["spec"]["template"]["metadata"];
    CHECK(pod["annotations"][kKaiPodGroupAnnotation] == "pt");
    CHECK(pod["labels"][kKaiQueueLabel] == "research");
    CHECK(object["metadata"]["annotations"][kKaiSkipPodGrouperAnnotation] == "true");
    ++joined;
  }
  CHECK(joined == 3);
}

TEST_CASE("kai: jobs that start later (dependsOn) are a gang of their own") {
  const char* text = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: kai}
spec:
  mlPolicy: {numNodes: 1, mpi: {numProcPerNode: 1}}
  template:
    spec:
      replicatedJobs:
        - name: node
          template:
            metadata:
              labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
            spec:
              template:
                spec:
                  schedulerName: kai-scheduler
                  containers: [{name: node, image: mpi:1}]
        - name: launcher
          dependsOn: [{name: node, status: Ready}]
          template:
            spec:
              template:
                spec:
                  schedulerName: kai-scheduler
                  containers: [{name: launcher, image: mpi:1}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: tj}
spec:
  runtimeRef: {name: kai}
  trainer: {numNodes: 3}
)";
  Diagnostics diagnostics;
  std::vector<Json> objects = kai_compile(text, &diagnostics);
  REQUIRE_FALSE(diagnostics.has_errors());
  std::vector<std::string> groups;
  for (const Json& object : objects) {
    if (object["kind"] == "PodGroup")
      groups.push_back(object["metadata"]["name"].get<std::string>() + " " +
                       object["spec"]["minMember"].dump());
  }
  CHECK(groups == std::vector<std::string>{"tj-stage-0 3", "tj-stage-1 1"});
  for (const Json& object : objects) {
    if (object["kind"] != "Job") continue;
    const std::string stage = object["metadata"]["name"] == "tj-launcher-0" ? "1" : "0";
    CHECK(object["spec"]["template"]["metadata"]["annotations"][kKaiPodGroupAnnotation] ==
          "tj-stage-" + stage);
  }
}
