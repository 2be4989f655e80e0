// unfit_gangs: a gang the nodes its pods may use cannot hold at once (cluster/gang_fit.h).
#include "cluster/gang_fit.h"

#include <doctest/doctest.h>

using trainjob::Json;
using trainjob::unfit_gangs;

namespace {

Json node(const std::string& name, const std::string& cpu, Json labels = Json::object()) {
  return {{"metadata", {{"name", name}, {"labels", std::move(labels)}}},
          {"status", {{"allocatable", {{"cpu", cpu}, {"memory", "64Gi"}, {"pods", "110"}}}}}};
}

/// A Job of `pods` pods asking for `cpu` each; `gang` puts a gang in its own spec.scheduling.
Json job(const std::string& name, int64_t pods, const std::string& cpu, bool gang,
         Json selector = nullptr) {
  Json spec = {{"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", cpu}}}}}}}}};
  if (!selector.is_null()) spec["nodeSelector"] = std::move(selector);
  Json out = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", name}}},
              {"spec", {{"parallelism", pods}, {"template", {{"spec", spec}}}}}};
  if (gang) out["spec"]["scheduling"] = {{"schedulingPolicy", {{"gang", Json::object()}}}};
  return out;
}

}  // namespace

TEST_CASE("unfit_gangs: a gang one pod per node larger than the nodes is named") {
  std::vector<Json> nodes = {node("a", "32"), node("b", "32"), node("c", "32")};
  std::vector<std::string> out = unfit_gangs({job("t-node-0", 4, "20", true)}, nodes);
  REQUIRE(out.size() == 1);
  CHECK(out[0].find("job.batch/t-node-0: the gang of 4 pods fits at most 3 at once on the 3 "
                    "nodes") == 0);
  CHECK(out[0].find("add nodes there, or ask for fewer (numNodes)") != std::string::npos);
  // Smaller pods share nodes: all 4 fit.
  CHECK(unfit_gangs({job("t-node-0", 4, "10", true)}, nodes).empty());
  // Without a gang nothing is said: the pods start as they fit.
  CHECK(unfit_gangs({job("t-node-0", 4, "20", false)}, nodes).empty());
}

TEST_CASE("unfit_gangs: only the nodes of the pods' nodeSelector count") {
  std::vector<Json> nodes = {node("a", "32", {{"pool", "a100"}}),
                             node("b", "32", {{"pool", "a100"}}),
                             node("c", "32", {{"pool", "cpu"}}), node("d", "32")};
  std::vector<std::string> out =
      unfit_gangs({job("t-node-0", 3, "20", true, {{"pool", "a100"}})}, nodes);
  REQUIRE(out.size() == 1);
  CHECK(out[0].find("fits at most 2 at once on the 2 nodes") != std::string::npos);
  nodes[2]["metadata"]["labels"]["pool"] = "a100";
  CHECK(unfit_gangs({job("t-node-0", 3, "20", true, {{"pool", "a100"}})}, nodes).empty());
  nodes[2]["spec"]["unschedulable"] = true;  // cordoned
  CHECK(unfit_gangs({job("t-node-0", 3, "20", true, {{"pool", "a100"}})}, nodes).size() == 1);
}

TEST_CASE("unfit_gangs: a Workload API PodGroup gathers the pods of every Job naming it") {
  Json group = {{"apiVersion", "scheduling.k8s.io/v1beta1"},
                {"kind", "PodGroup"},
                {"metadata", {{"name", "mpi"}}},
                {"spec", {{"schedulingPolicy", {{"gang", {{"minCount", 5}}}}}}}};
  Json launcher = job("mpi-launcher-0", 1, "20", false);
  Json nodes_job = job("mpi-node-0", 4, "20", false);
  for (Json* each : {&launcher, &nodes_job})
    (*each)["spec"]["template"]["spec"]["schedulingGroup"] = {{"podGroupName", "mpi"}};
  std::vector<Json> four = {node("a", "32"), node("b", "32"), node("c", "32"), node("d", "32")};
  std::vector<std::string> out = unfit_gangs({group, launcher, nodes_job}, four);
  REQUIRE(out.size() == 1);
  CHECK(out[0].find("podgroup.scheduling.k8s.io/mpi: the gang of 5 pods fits at most 4") == 0);
  four.push_back(node("e", "32"));
  CHECK(unfit_gangs({group, launcher, nodes_job}, four).empty());
}

TEST_CASE("unfit_gangs: limits count where a resource has no request, and extended resources") {
  Json gpu_job = job("g-node-0", 2, "1", true);
  gpu_job["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"] = {
      {"nvidia.com/gpu", "8"}};
  Json gpu_node = node("a", "32");
  gpu_node["status"]["allocatable"]["nvidia.com/gpu"] = "8";
  std::vector<std::string> out = unfit_gangs({gpu_job}, {gpu_node, node("b", "32")});
  REQUIRE(out.size() == 1);  // node b has no GPU
  CHECK(out[0].find("fits at most 1 at once on the 2 nodes") != std::string::npos);
}
