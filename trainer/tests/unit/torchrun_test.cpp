// torchrun's command line: the script and its words, the rendezvous flags, and the
// command and environment each Python worker gets.
#include <map>

#include <doctest/doctest.h>

#include "launch/worker_env.h"
#include "settings/options.h"

using namespace trainjob::trainer;

namespace {

std::map<std::string, std::string> env_map(const EnvVars& vars) {
  return {vars.begin(), vars.end()};
}

LaunchPlan planned(const std::vector<std::string>& args, std::string* error = nullptr) {
  ParsedOptions parsed = parse_options(args);
  REQUIRE(parsed.error.empty());
  LaunchPlan plan;
  std::string problem;
  NodeFacts node{0, 8, [] { return 40123; }};
  bool ok = plan_launch(parsed.options, node, &plan, &problem);
  if (error != nullptr) *error = problem;
  CHECK(ok == problem.empty());
  return plan;
}

}  // namespace

TEST_CASE("torchrun: the words after SCRIPT are the script's, flags of ours among them") {
  ParsedOptions parsed = parse_options({"--nproc_per_node=2", "--master_port", "23456", "train.py",
                                        "--epochs", "3", "--nnodes", "x", "-m"});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.nproc_per_node == "2");
  CHECK(parsed.options.master_port == 23456);
  CHECK(parsed.options.script == "train.py");
  CHECK(parsed.options.script_args ==
        std::vector<std::string>{"--epochs", "3", "--nnodes", "x", "-m"});
  CHECK(parsed.options.epochs == 5);
  CHECK(parsed.options.nnodes == 1);
  CHECK_FALSE(parsed.options.module);
  CHECK(script_command(parsed.options) == std::vector<std::string>{"python3", "-u", "train.py",
                                                                   "--epochs", "3", "--nnodes", "x",
                                                                   "-m"});
}

TEST_CASE("torchrun: both spellings of every flag, -m, --no-python and --") {
  ParsedOptions dashed = parse_options({"--nproc-per-node", "4", "--node-rank", "1", "--nnodes",
                                        "2", "--max-restarts", "3", "-m", "pkg.train", "a"});
  REQUIRE(dashed.error.empty());
  CHECK(dashed.options.nproc_per_node == "4");
  CHECK(dashed.options.node_rank == 1);
  CHECK(dashed.options.max_restarts == 3);
  CHECK(script_command(dashed.options) ==
        std::vector<std::string>{"python3", "-u", "-m", "pkg.train", "a"});
  ParsedOptions direct = parse_options({"--no_python", "--python", "python3.11", "./run.sh", "b"});
  REQUIRE(direct.error.empty());
  CHECK(script_command(direct.options) == std::vector<std::string>{"./run.sh", "b"});
  ParsedOptions other_python = parse_options({"--python=/usr/bin/python3.11", "--", "--x.py"});
  REQUIRE(other_python.error.empty());
  CHECK(script_command(other_python.options) ==
        std::vector<std::string>{"/usr/bin/python3.11", "-u", "--x.py"});
  CHECK(script_command(parse_options({"--nnodes", "1"}).options).empty());
}

TEST_CASE("torchrun: --redirects, --tee and the rendezvous flags are checked as torchrun does") {
  ParsedOptions accepted =
      parse_options({"--redirects", "3", "-t", "0:1,1:2", "--rdzv_backend", "c10d", "--rdzv_conf",
                     "timeout=5", "--start_method", "spawn", "--log_dir", "/tmp",
                     "--monitor_interval", "5", "--role", "trainer", "--rdzv_id", "job7", "x.py"});
  REQUIRE(accepted.error.empty());
  CHECK(accepted.options.redirects == "3");
  CHECK(accepted.options.tee == "0:1,1:2");
  ParsedOptions bad_redirect = parse_options({"--redirects", "4", "x.py"});
  CHECK(bad_redirect.exit_code == 2);
  CHECK(bad_redirect.error == "--redirects: expected 0-3 or LOCAL_RANK:0-3,..., found \"4\"");
  CHECK(parse_options({"--rdzv_backend", "etcd", "x.py"}).error ==
        "--rdzv-backend: expected one of static, c10d, found \"etcd\"");
  CHECK(parse_options({"--rdzv_endpoint", "host:http", "x.py"}).exit_code == 2);
  CHECK(parse_options({"-m", "--no-python", "x"}).exit_code == 2);
  CHECK(parse_options({"--nnodes", "1:2", "x.py"}).exit_code == 2);
  CHECK(parse_options({"--nnodes", "3", "--nnodes=2", "x.py"}).options.nnodes == 2);
}

TEST_CASE("torchrun: a bad PET_ variable is named and exits 1, a bad switch variable too") {
  setenv("PET_TEE", "9", 1);
  ParsedOptions tee = parse_options({"x.py"});
  unsetenv("PET_TEE");
  CHECK(tee.exit_code == 1);
  CHECK(tee.error == "PET_TEE: expected 0-3 or LOCAL_RANK:0-3,..., found \"9\"");
  setenv("PET_STANDALONE", "maybe", 1);
  ParsedOptions standalone = parse_options({"x.py"});
  unsetenv("PET_STANDALONE");
  CHECK(standalone.exit_code == 1);
  setenv("PET_STANDALONE", "1", 1);
  ParsedOptions set = parse_options({"x.py"});
  unsetenv("PET_STANDALONE");
  CHECK(set.options.standalone);
}

TEST_CASE("torchrun: the rendezvous endpoint, --standalone and the node rank make the plan") {
  LaunchPlan plain = planned({"--nproc_per_node", "2", "--master_addr", "m", "x.py"});
  CHECK(plain.nproc_per_node == 2);
  CHECK(plain.master_addr == "m");
  CHECK(plain.master_port == 29500);
  LaunchPlan c10d = planned({"--rdzv_backend=c10d", "--rdzv_endpoint=node-0", "x.py"});
  CHECK(c10d.master_addr == "node-0");
  CHECK(c10d.master_port == 29400);
  LaunchPlan with_port = planned({"--rdzv_endpoint", "node-0:1234", "--rdzv_id", "j", "x.py"});
  CHECK(with_port.master_port == 1234);
  CHECK(with_port.run_id == "j");
  LaunchPlan standalone = planned(
      {"--standalone", "--nnodes", "2", "--node_rank", "1", "--nproc_per_node", "cpu", "x.py"});
  CHECK(standalone.nnodes == 1);
  CHECK(standalone.node_rank == 0);
  CHECK(standalone.nproc_per_node == 8);
  CHECK(standalone.master_addr == "127.0.0.1");
  CHECK(standalone.master_port == 40123);
  std::string error;
  planned({"--nnodes", "2", "--node_rank", "2", "x.py"}, &error);
  CHECK(error == "--node-rank: expected 0 … 1 for --nnodes 2, found 2");
  planned({"--nproc_per_node", "gpu", "x.py"}, &error);
  CHECK(error == "--nproc-per-node: gpu: no GPU is visible on this node");
}

TEST_CASE("torchrun: each Python worker's environment is torchrun's, rank 0 hosting the store") {
  LaunchPlan plan =
      planned({"--nnodes", "2", "--node_rank", "1", "--nproc_per_node", "2", "--role", "trainer",
               "--rdzv_id", "job7", "--max_restarts", "2", "--master_addr", "node-0", "x.py"});
  auto env = env_map(worker_env(plan, 1, 1, false));
  CHECK(env["RANK"] == "3");
  CHECK(env["LOCAL_RANK"] == "1");
  CHECK(env["WORLD_SIZE"] == "4");
  CHECK(env["LOCAL_WORLD_SIZE"] == "2");
  CHECK(env["GROUP_RANK"] == "1");
  CHECK(env["GROUP_WORLD_SIZE"] == "2");
  CHECK(env["ROLE_NAME"] == "trainer");
  CHECK(env["ROLE_RANK"] == "3");
  CHECK(env["ROLE_WORLD_SIZE"] == "4");
  CHECK(env["MASTER_ADDR"] == "node-0");
  CHECK(env["MASTER_PORT"] == "29500");
  CHECK(env["TORCHELASTIC_RESTART_COUNT"] == "1");
  CHECK(env["TORCHELASTIC_MAX_RESTARTS"] == "2");
  CHECK(env["TORCHELASTIC_RUN_ID"] == "job7");
  CHECK(env["TORCHELASTIC_USE_AGENT_STORE"] == "False");
  CHECK(env["OMP_NUM_THREADS"] == "1");
}
