// The environment each worker gets, and how a worker reads it back.
#include "launch/worker_env.h"

#include <map>

#include <doctest/doctest.h>

#include "launch/worker_identity.h"
#include "settings/devices.h"

using namespace trainjob::trainer;

namespace {

std::map<std::string, std::string> as_map(const EnvVars& vars) {
  return {vars.begin(), vars.end()};
}

}  // namespace

TEST_CASE("worker env: ranks are numbered node by node, as torchrun numbers them") {
  LaunchPlan plan{2, 2, 1, "job-node-0-0.job", 29500, 3};
  auto env = as_map(worker_env(plan, 1, 2, false));
  CHECK(env["RANK"] == "3");
  CHECK(env["LOCAL_RANK"] == "1");
  CHECK(env["WORLD_SIZE"] == "4");
  CHECK(env["LOCAL_WORLD_SIZE"] == "2");
  CHECK(env["GROUP_RANK"] == "1");
  CHECK(env["MASTER_ADDR"] == "job-node-0-0.job");
  CHECK(env["MASTER_PORT"] == "29500");
  CHECK(env["TORCHELASTIC_RESTART_COUNT"] == "2");
  CHECK(env["TORCHELASTIC_MAX_RESTARTS"] == "3");
  CHECK(env["OMP_NUM_THREADS"] == "1");
}

TEST_CASE("worker env: OMP_NUM_THREADS is left alone when set or when one worker runs") {
  LaunchPlan plan{1, 2, 0, "127.0.0.1", 29500, 0};
  CHECK(as_map(worker_env(plan, 0, 0, true)).count("OMP_NUM_THREADS") == 0);
  plan.nproc_per_node = 1;
  CHECK(as_map(worker_env(plan, 0, 0, false)).count("OMP_NUM_THREADS") == 0);
}

TEST_CASE("worker identity: read back from the launcher's variables") {
  LaunchPlan plan{2, 2, 1, "master", 1234, 1};
  auto env = as_map(worker_env(plan, 0, 1, false));
  WorkerIdentity identity;
  std::string error;
  REQUIRE(read_worker_identity(
      [&env](const std::string& name) -> std::optional<std::string> {
        auto found = env.find(name);
        if (found == env.end()) return std::nullopt;
        return found->second;
      },
      &identity, &error));
  CHECK(identity.rank == 2);
  CHECK(identity.world_size == 4);
  CHECK(identity.local_rank == 0);
  CHECK(identity.master_addr == "master");
  CHECK(identity.master_port == 1234);
  CHECK(identity.attempt == 1);
  CHECK_FALSE(identity.agent_store);
  CHECK(attempt_key_prefix(identity.attempt) == "/worker/attempt_1");
}

TEST_CASE("worker identity: a missing or out-of-range variable is named") {
  WorkerIdentity identity;
  std::string error;
  auto only = [](const std::map<std::string, std::string>& values) {
    return [values](const std::string& name) -> std::optional<std::string> {
      auto found = values.find(name);
      if (found == values.end()) return std::nullopt;
      return found->second;
    };
  };
  CHECK_FALSE(read_worker_identity(only({{"RANK", "0"}}), &identity, &error));
  CHECK(error == "WORLD_SIZE is not set; start workers with trainjob-trainer or torchrun");
  CHECK_FALSE(read_worker_identity(only({{"RANK", "4"}, {"WORLD_SIZE", "4"}}), &identity, &error));
  CHECK(error == "RANK: expected an integer 0 … 3, found \"4\"");
  CHECK(read_worker_identity(
      only({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"TORCHELASTIC_USE_AGENT_STORE", "True"}}),
      &identity, &error));
  CHECK(identity.agent_store);
}

TEST_CASE("devices: CUDA_VISIBLE_DEVICES entries up to the first invalid one") {
  CHECK(count_cuda_visible_devices("0,1,2") == 3);
  CHECK(count_cuda_visible_devices("") == 0);
  CHECK(count_cuda_visible_devices("-1") == 0);
  CHECK(count_cuda_visible_devices("0,-1,2") == 1);
  CHECK(count_cuda_visible_devices("GPU-5d2c") == 1);
}
