// Kueue's topology annotations offline: where Kueue reads them (pod templates only), where to
// move them from elsewhere, and what a topology level may be (a node label key).
#include "pipeline/kueue_topology.h"

#include <doctest/doctest.h>

namespace trainjob {
namespace {

TEST_CASE("kueue topology: read on pod templates only") {
  CHECK(kueue_reads_topology_at(
      "spec.template.spec.replicatedJobs[0].template.spec.template.metadata.annotations"));
  CHECK(
      kueue_reads_topology_at("spec.runtimePatches[0].trainingRuntimeSpec.template.spec."
                              "replicatedJobs[1].template.spec.template.metadata.annotations"));
  CHECK(kueue_reads_topology_at("spec.pytorchReplicaSpecs.Worker.template.metadata.annotations"));
  CHECK(kueue_reads_topology_at("spec.podTemplateOverrides[2].metadata.annotations"));
  CHECK(!kueue_reads_topology_at("metadata.annotations"));
  CHECK(!kueue_reads_topology_at("spec.template.metadata.annotations"));
  CHECK(!kueue_reads_topology_at(
      "spec.template.spec.replicatedJobs[0].template.metadata.annotations"));
}

TEST_CASE("kueue topology: the fix names the pod template one level down") {
  CHECK(kueue_topology_fix("TrainingRuntime",
                           "spec.template.spec.replicatedJobs[0].template.metadata.annotations") ==
        "spec.template.spec.replicatedJobs[0].template.spec.template.metadata.annotations");
  CHECK(kueue_topology_fix("TrainingRuntime", "spec.template.metadata.annotations")
            .rfind("spec.template.spec.replicatedJobs[*]", 0) == 0);
  CHECK(kueue_topology_fix("PyTorchJob", "metadata.annotations").find("ReplicaSpecs") !=
        std::string::npos);
}

TEST_CASE("kueue topology: a level is a label key") {
  CHECK(is_label_key("cloud.provider.com/topology-rack"));
  CHECK(is_label_key("kubernetes.io/hostname"));
  CHECK(is_label_key("rack"));
  CHECK(!is_label_key("Not A Label!"));
  CHECK(!is_label_key("Example.com/rack"));
  CHECK(!is_label_key("example.com/"));
  CHECK(!is_label_key("/rack"));
  CHECK(!is_label_key(std::string(64, 'a')));
  CHECK(!is_label_key(""));
}

}  // namespace
}  // namespace trainjob
