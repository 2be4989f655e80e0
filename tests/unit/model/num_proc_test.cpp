#include "model/num_proc.h"

#include <doctest/doctest.h>

using trainjob::Json;
using trainjob::resolve_num_proc_per_node;

namespace {

Json resources(const char* text) {
  return Json::parse(text);
}

}  // namespace

TEST_CASE("num_proc: auto without GPUs takes the CPUs, requests before limits") {
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"limits":{"cpu":4}})")) == "4");
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"limits":{"cpu":"2"}})")) == "2");
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"requests":{"cpu":3}})")) == "3");
  CHECK(resolve_num_proc_per_node(
            "auto", resources(R"({"requests":{"cpu":"1"},"limits":{"cpu":"8"}})")) == "1");
  CHECK(resolve_num_proc_per_node("auto", Json()) == "1");
  CHECK(resolve_num_proc_per_node(Json(), Json()) == "1");
}

TEST_CASE("num_proc: fractional CPUs round up") {
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"limits":{"cpu":2.5}})")) == "3");
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"limits":{"cpu":"2500m"}})")) == "3");
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"limits":{"cpu":"0.7"}})")) == "1");
  CHECK(resolve_num_proc_per_node("cpu", resources(R"({"limits":{"cpu":"3.7"}})")) == "4");
}

TEST_CASE("num_proc: GPUs leave auto to torchrun; cpu mode ignores GPUs") {
  CHECK(resolve_num_proc_per_node("auto", resources(R"({"limits":{"example.com/gpu":2}})")) ==
        "auto");
  CHECK(resolve_num_proc_per_node(
            "auto", resources(R"({"limits":{"cpu":8,"memory":"16Gi","nvidia.com/gpu":4}})")) ==
        "auto");
  CHECK(resolve_num_proc_per_node("cpu", resources(R"({"limits":{"cpu":6,"nvidia.com/gpu":2}})")) ==
        "6");
  CHECK(resolve_num_proc_per_node("gpu", resources(R"({"limits":{"cpu":6}})")) == "gpu");
  CHECK(resolve_num_proc_per_node(3, resources(R"({"limits":{"cpu":8}})")) == "3");
}

TEST_CASE("num_proc: GPU detection by name, requests before limits") {
  CHECK(trainjob::gpu_count(resources(R"({"limits":{"amd.com/GPU":"3"}})")) == 3);
  CHECK(trainjob::gpu_count(resources(R"({"limits":{"google.com/tpu":"4"}})")) == 0);
  CHECK(trainjob::gpu_count(resources(
            R"({"requests":{"nvidia.com/gpu":"0"},"limits":{"nvidia.com/gpu":"2"}})")) == 2);
  CHECK(trainjob::cpu_count(resources(R"({"requests":{"cpu":"0"},"limits":{"cpu":"5"}})")) == 5);
}
