#include "legacy/gang_resources.h"

#include <vector>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

Json pod(Json containers) {
  return Json{{"containers", std::move(containers)}};
}

Json container(Json resources) {
  return Json{{"name", "c"}, {"image", "i"}, {"resources", std::move(resources)}};
}

TEST_CASE("gang resources: the Training Operator counts pods up to minMember, in order") {
  Json master = pod(Json::array({container({{"requests", {{"cpu", "1"}, {"memory", "1Gi"}}}})}));
  Json worker =
      pod(Json::array({container({{"requests", {{"cpu", "500m"}, {"nvidia.com/gpu", 1}}}})}));
  std::vector<GangReplica> replicas = {{1, &master}, {3, &worker}};
  CHECK(training_operator_min_resources(replicas, 4) ==
        Json{{"cpu", "2500m"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "3"}});
  // minMember bounds the count: the master and one worker.
  CHECK(training_operator_min_resources(replicas, 2) ==
        Json{{"cpu", "1500m"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}});
  CHECK(training_operator_min_resources(replicas, 0) == Json::object());
  // More members than pods: every pod, once.
  CHECK(training_operator_min_resources(replicas, 10) ==
        training_operator_min_resources(replicas, 4));
}

TEST_CASE("gang resources: the Training Operator takes limits only without any requests") {
  Json limits_only = pod(Json::array({container({{"limits", {{"cpu", "2"}, {"memory", "4Gi"}}}})}));
  Json partial = pod(
      Json::array({container({{"requests", {{"cpu", "1"}}}, {"limits", {{"memory", "4Gi"}}}})}));
  Json empty_requests =
      pod(Json::array({container({{"requests", Json::object()}, {"limits", {{"cpu", "8"}}}})}));
  Json nothing = pod(Json::array({container(Json::object()), Json{{"name", "bare"}}}));
  std::vector<GangReplica> replicas = {
      {2, &limits_only}, {1, &partial}, {1, &empty_requests}, {1, &nothing}};
  // The partial container's memory limit and the empty requests' cpu limit are not counted.
  CHECK(training_operator_min_resources(replicas, 5) == Json{{"cpu", "5"}, {"memory", "8Gi"}});
  CHECK(training_operator_pod_resources(replicas[1]) == Json{{"cpu", "1"}});
  CHECK(training_operator_pod_resources(replicas[3]) == Json::object());
}

TEST_CASE("gang resources: every container of a pod, init containers not") {
  Json spec = {{"initContainers", Json::array({container({{"requests", {{"cpu", "16"}}}})})},
               {"containers",
                {container({{"requests", {{"cpu", "250m"}}}}),
                 container({{"requests", {{"cpu", "250m"}, {"memory", "512Mi"}}}})}}};
  std::vector<GangReplica> replicas = {{2, &spec}};
  CHECK(training_operator_min_resources(replicas, 2) == Json{{"cpu", "1"}, {"memory", "1Gi"}});
}

TEST_CASE("gang resources: mpi-operator cuts the workers to minMember - 1") {
  Json launcher = pod(Json::array({container({{"requests", {{"cpu", "1"}}}})}));
  // Requests, and per resource the limits of what is not requested.
  Json worker = pod(Json::array({container(
      {{"requests", {{"cpu", "2"}}}, {"limits", {{"cpu", "4"}, {"nvidia.com/gpu", "1"}}}})}));
  GangReplica l{1, &launcher};
  GangReplica w{4, &worker};
  CHECK(mpi_operator_min_resources(l, &w, 5) == Json{{"cpu", "9"}, {"nvidia.com/gpu", "4"}});
  CHECK(mpi_operator_min_resources(l, &w, 3) == Json{{"cpu", "5"}, {"nvidia.com/gpu", "2"}});
  // Cut to none, the workers' resources are still listed, as 0.
  CHECK(mpi_operator_min_resources(l, &w, 1) == Json{{"cpu", "1"}, {"nvidia.com/gpu", "0"}});
  CHECK(mpi_operator_min_resources(l, nullptr, 1) == Json{{"cpu", "1"}});
}

}  // namespace
}  // namespace trainjob
