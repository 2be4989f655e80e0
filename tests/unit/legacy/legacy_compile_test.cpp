// The Training Operator v1 kinds compiled into Jobs and Services: the env of chosen pods,
// the operator's defaulting and the errors, checked value by value.
#include "legacy/legacy_compile.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "legacy/legacy_job.h"
#include "legacy/legacy_kinds.h"
#include "load/yaml_loader.h"

namespace trainjob {
namespace {

struct Compiled {
  Diagnostics diagnostics;
  std::vector<Json> objects;
};

Compiled compile(const std::string& yaml, const std::string& name_space = "") {
  Compiled out;
  std::vector<Document> documents = load_documents("job.yaml", yaml, &out.diagnostics);
  REQUIRE(documents.size() == 1);
  CompileOptions options;
  options.default_namespace = name_space;
  out.objects = compile_legacy_job(documents[0], options, &out.diagnostics);
  return out;
}

const Json* find_object(const Compiled& compiled, const std::string& kind,
                        const std::string& name) {
  for (const Json& object : compiled.objects) {
    if (object["kind"] == kind && object["metadata"]["name"] == name) return &object;
  }
  return nullptr;
}

/// The env value `name` of container `container` of Job `job`; "<absent>" when unset.
std::string env_of(const Compiled& compiled, const std::string& job, const std::string& name,
                   size_t container = 0) {
  const Json* object = find_object(compiled, "Job", job);
  REQUIRE(object != nullptr);
  const Json& chosen = object->at("spec").at("template").at("spec").at("containers").at(container);
  if (!chosen.contains("env")) return "<absent>";
  for (const Json& var : chosen.at("env")) {
    if (var["name"] == name) return var.value("value", "<valueFrom>");
  }
  return "<absent>";
}

const char* kPyTorch = R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt}
spec:
  nprocPerNode: "4"
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers: [{name: pytorch, image: img}]
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: pytorch, image: img, env: [{name: RANK, value: "7"}]}]
)";

TEST_CASE("legacy: PyTorchJob ranks, world size and addresses per pod") {
  Compiled compiled = compile(kPyTorch);
  REQUIRE_FALSE(compiled.diagnostics.has_errors());
  CHECK(compiled.objects.size() == 6);  // 3 Services, 3 Jobs
  CHECK(env_of(compiled, "pt-master-0", "RANK") == "0");
  CHECK(env_of(compiled, "pt-worker-1", "RANK") == "2");
  CHECK(env_of(compiled, "pt-worker-1", "PET_NODE_RANK") == "2");
  CHECK(env_of(compiled, "pt-worker-0", "WORLD_SIZE") == "12");
  CHECK(env_of(compiled, "pt-worker-0", "MASTER_ADDR") == "pt-master-0");
  CHECK(env_of(compiled, "pt-worker-0", "MASTER_PORT") == "23456");
  CHECK(env_of(compiled, "pt-worker-0", "PET_NPROC_PER_NODE") == "4");
  CHECK(env_of(compiled, "pt-worker-0", "PET_NNODES") == "3");
  // The user's RANK gives way to the operator's, which comes last.
  const Json& env = (*find_object(
      compiled, "Job", "pt-worker-0"))["spec"]["template"]["spec"]["containers"][0]["env"];
  int ranks = 0;
  for (const Json& var : env)
    ranks += var["name"] == "RANK" ? 1 : 0;
  CHECK(ranks == 1);
  const Json* service = find_object(compiled, "Service", "pt-master-0");
  REQUIRE(service != nullptr);
  CHECK((*service)["spec"]["ports"][0]["port"] == 23456);
  CHECK((*service)["spec"]["selector"]["training.kubeflow.org/replica-index"] == "0");
}

TEST_CASE("legacy: TF_CONFIG as the operator's Go encoder writes it") {
  Compiled compiled = compile(R"(apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf, namespace: ns3}
spec:
  tfReplicaSpecs:
    Worker: {template: {spec: {containers: [{name: tensorflow, image: tf}]}}}
    PS: {template: {spec: {containers: [{name: tensorflow, image: tf}]}}}
    Evaluator: {template: {spec: {containers: [{name: tensorflow, image: tf}]}}}
)");
  REQUIRE_FALSE(compiled.diagnostics.has_errors());
  CHECK(env_of(compiled, "tf-worker-0", "TF_CONFIG") ==
        R"({"cluster":{"evaluator":["tf-evaluator-0.ns3.svc:2222"],"ps":["tf-ps-0.ns3.svc:2222"],)"
        R"("worker":["tf-worker-0.ns3.svc:2222"]},"task":{"type":"worker","index":0},)"
        R"("environment":"cloud"})");
}

TEST_CASE("legacy: a TFJob of one pod is not distributed and gets no TF_CONFIG") {
  Compiled compiled = compile(R"(apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: one}
spec:
  tfReplicaSpecs:
    Worker: {template: {spec: {containers: [{name: tensorflow, image: tf}]}}}
)");
  CHECK(env_of(compiled, "one-worker-0", "TF_CONFIG") == "<absent>");
}

TEST_CASE("legacy: errors at the user's fields") {
  Compiled two_masters = compile(R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt}
spec:
  pytorchReplicaSpecs:
    Master: {replicas: 2, template: {spec: {containers: [{name: pytorch, image: img}]}}}
)");
  CHECK(two_masters.objects.empty());
  REQUIRE(two_masters.diagnostics.error_count() == 1);
  CHECK(two_masters.diagnostics.all()[0].path == "spec.pytorchReplicaSpecs.Master.replicas");

  // The webhook reads the Master's replicas before defaulting them: absent is refused too.
  Compiled unstated = compile(R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt}
spec:
  pytorchReplicaSpecs:
    Master: {template: {spec: {containers: [{name: pytorch, image: img}]}}}
)");
  CHECK(unstated.objects.empty());
  REQUIRE(unstated.diagnostics.error_count() == 1);
  CHECK(unstated.diagnostics.all()[0].path == "spec.pytorchReplicaSpecs.Master");

  Compiled removed = compile("apiVersion: kubeflow.org/v1\nkind: MXJob\nmetadata: {name: mx}\n");
  REQUIRE(removed.diagnostics.error_count() == 1);
  CHECK(removed.diagnostics.all()[0].message.find("PyTorchJob") != std::string::npos);
}

TEST_CASE("legacy: replica types are spelt exactly, but a TFJob's in any case") {
  Compiled jax = compile(R"(apiVersion: kubeflow.org/v1
kind: JAXJob
metadata: {name: jax}
spec:
  jaxReplicaSpecs:
    worker: {template: {spec: {containers: [{name: jax, image: img}]}}}
)");
  CHECK(jax.objects.empty());
  REQUIRE(jax.diagnostics.error_count() == 1);
  CHECK(jax.diagnostics.all()[0].path == "spec.jaxReplicaSpecs.worker");
  CHECK(jax.diagnostics.all()[0].message.find("write the key as Worker") != std::string::npos);

  // The TFJob webhook does not check the keys and the operator's defaulting folds them.
  Compiled tf = compile(R"(apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf}
spec:
  tfReplicaSpecs:
    chief: {template: {spec: {containers: [{name: tensorflow, image: tf}]}}}
    worker: {replicas: 2, template: {spec: {containers: [{name: tensorflow, image: tf}]}}}
)");
  REQUIRE_FALSE(tf.diagnostics.has_errors());
  CHECK(find_object(tf, "Job", "tf-chief-0") != nullptr);
  CHECK(find_object(tf, "Job", "tf-worker-1") != nullptr);
}

TEST_CASE("legacy: elastic replicas default to each other") {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents("job.yaml", R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: el}
spec:
  elasticPolicy: {maxReplicas: 4}
  pytorchReplicaSpecs:
    Worker: {replicas: 2, template: {spec: {containers: [{name: pytorch, image: img}]}}}
)",
                                                   &diagnostics);
  LegacyJob job;
  REQUIRE(read_legacy_job(documents[0], "", &job, &diagnostics));
  CHECK(job.elastic_policy["minReplicas"] == 4);
  CHECK(job.nproc_per_node == "auto");
  CHECK(job.replicas[0].restart_policy == "OnFailure");
}

}  // namespace
}  // namespace trainjob
