// Flags and PET_* / TRAINER_* variables: flags win, bad values are named.
#include "settings/options.h"

#include <cstdlib>
#include <map>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

// Sets variables for one test (CLI11 reads the process environment) and unsets them after.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::map<std::string, std::string> values) : values_(std::move(values)) {
    for (const auto& [name, value] : values_)
      setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& entry : values_)
      unsetenv(entry.first.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::map<std::string, std::string> values_;
};

ParsedOptions parse_with(const std::vector<std::string>& args,
                         std::map<std::string, std::string> env) {
  ScopedEnv scoped(std::move(env));
  return parse_options(args);
}

}  // namespace

TEST_CASE("options: the PET_* variables the torch policy injects configure the launcher") {
  ParsedOptions parsed = parse_with({}, {{"PET_NNODES", "2"},
                                         {"PET_NPROC_PER_NODE", "auto"},
                                         {"PET_NODE_RANK", "1"},
                                         {"PET_MASTER_ADDR", "job-node-0-0.job"},
                                         {"PET_MASTER_PORT", "29500"}});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.nnodes == 2);
  CHECK(parsed.options.nproc_per_node == "auto");
  CHECK(parsed.options.node_rank == 1);
  CHECK(parsed.options.master_addr == "job-node-0-0.job");
  CHECK(parsed.options.master_port == 29500);
}

TEST_CASE("options: a flag wins over its variable, in either spelling") {
  ParsedOptions parsed = parse_with({"--node_rank", "0", "--epochs=3", "--ddp", "flat"},
                                    {{"PET_NODE_RANK", "1"}, {"TRAINER_EPOCHS", "7"}});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.node_rank == 0);
  CHECK(parsed.options.epochs == 3);
  CHECK(parsed.options.ddp == DdpMode::kFlat);
}

TEST_CASE("options: PET_NNODES accepts N and N:N, and refuses elastic ranges") {
  CHECK(parse_with({}, {{"PET_NNODES", "3:3"}}).options.nnodes == 3);
  ParsedOptions elastic = parse_with({}, {{"PET_NNODES", "1:4"}});
  CHECK(elastic.exit_code == 1);
  CHECK(elastic.error.find("PET_NNODES: elastic ranges are not supported") == 0);
}

TEST_CASE("options: a bad variable exits 1, a bad flag 2, and both name the setting") {
  ParsedOptions env_error = parse_with({}, {{"PET_NPROC_PER_NODE", "npu"}});
  CHECK(env_error.exit_code == 1);
  CHECK(env_error.error ==
        "PET_NPROC_PER_NODE: expected an integer ≥ 1 or one of auto, cpu, gpu, found \"npu\"");
  ParsedOptions flag_error = parse_options({"--master-port", "70000"});
  CHECK(flag_error.exit_code == 2);
  CHECK(flag_error.error == "--master-port: expected a port number 1–65535, found \"70000\"");
  CHECK(parse_options({"--bogus", "1"}).error == "unknown flag --bogus; see --help");
  CHECK(parse_options({"--epochs"}).error == "--epochs: expected a value");
  CHECK(parse_options({"-m"}).exit_code == 2);
  CHECK(parse_options({"--model", "resnet"}).error ==
        "--model: expected one of linear, mnist-cnn, found \"resnet\"");
}

TEST_CASE("options: a trial's KUBEFLOW_TRAINER_OPT_* sets every training setting") {
  ParsedOptions parsed = parse_with({}, {{"KUBEFLOW_TRAINER_OPT_LR", "0.05"},
                                         {"KUBEFLOW_TRAINER_OPT_BATCH_SIZE", "16"},
                                         {"KUBEFLOW_TRAINER_OPT_EPOCHS", "2"},
                                         {"KUBEFLOW_TRAINER_OPT_MODEL", "mnist-cnn"},
                                         {"KUBEFLOW_TRAINER_OPT_BUCKET_CAP_MB", "4"},
                                         {"KUBEFLOW_TRAINER_OPT_PROGRESS_STEPS", "0"}});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.lr == 0.05);
  CHECK(parsed.options.batch_size == 16);
  CHECK(parsed.options.epochs == 2);
  CHECK(parsed.options.model == "mnist-cnn");
  CHECK(parsed.options.bucket_cap_mb == 4);
  CHECK(parsed.options.progress_steps == 0);
}

TEST_CASE("options: flag, then KUBEFLOW_TRAINER_OPT_*, then TRAINER_*, then the default") {
  const std::map<std::string, std::string> env = {{"TRAINER_LR", "0.2"},
                                                  {"KUBEFLOW_TRAINER_OPT_LR", "0.3"},
                                                  {"TRAINER_EPOCHS", "7"},
                                                  {"KUBEFLOW_TRAINER_OPT_EPOCHS", "8"},
                                                  {"TRAINER_SEED", "4"}};
  ParsedOptions parsed = parse_with({"--epochs", "9"}, env);
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.epochs == 9);
  CHECK(parsed.options.lr == 0.3);
  CHECK(parsed.options.seed == 4);
  CHECK(parsed.options.batch_size == 0);
}

TEST_CASE("options: a bad KUBEFLOW_TRAINER_OPT_* exits 1 naming it, even under a flag") {
  ParsedOptions parsed = parse_with({"--lr", "0.1"}, {{"KUBEFLOW_TRAINER_OPT_LR", "fast"}});
  CHECK(parsed.exit_code == 1);
  CHECK(parsed.error == "KUBEFLOW_TRAINER_OPT_LR: expected a number > 0, found \"fast\"");
  CHECK(parse_with({}, {{"KUBEFLOW_TRAINER_OPT_BATCH_SIZE", "0"}}).error ==
        "KUBEFLOW_TRAINER_OPT_BATCH_SIZE: expected an integer ≥ 1, found \"0\"");
}

TEST_CASE("options: the launcher's settings have no KUBEFLOW_TRAINER_OPT_* variable") {
  // A trial varies hyperparameters, not the pod's place in the job.
  ParsedOptions parsed = parse_with(
      {}, {{"KUBEFLOW_TRAINER_OPT_NNODES", "4"}, {"KUBEFLOW_TRAINER_OPT_NODE_RANK", "bad"}});
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.nnodes == 1);
}

TEST_CASE("options: --help lists every flag with its variable") {
  CHECK(parse_options({"--help"}).help);
  const std::string help = help_text();
  for (const char* name :
       {"--nnodes",           "PET_NNODES",      "--nproc-per-node",
        "PET_NPROC_PER_NODE", "--node-rank",     "PET_NODE_RANK",
        "--master-addr",      "PET_MASTER_ADDR", "--master-port",
        "PET_MASTER_PORT",    "--max-restarts",  "--rdzv-timeout",
        "--backend",          "TRAINER_BACKEND", "--device",
        "TRAINER_DEVICE",     "--model",         "--data-dir",
        "--checkpoint-dir",   "--ddp",           "--bucket-cap-mb",
        "GLOO_SOCKET_IFNAME", "TRAINER_EPOCHS",  "KUBEFLOW_TRAINER_OPT_BATCH_SIZE"}) {
    CHECK_MESSAGE(help.find(name) != std::string::npos, name);
  }
}

TEST_CASE("options: --device is auto, cpu or cuda") {
  CHECK(parse_with({}, {}).options.device == "auto");
  CHECK(parse_with({"--device", "cuda"}, {}).options.device == "cuda");
  CHECK(parse_with({}, {{"TRAINER_DEVICE", "cpu"}}).options.device == "cpu");
  CHECK_FALSE(parse_with({"--device", "gpu"}, {}).error.empty());
}

TEST_CASE("options: nproc-per-node resolves auto, cpu and gpu from the node") {
  CHECK(resolve_nproc("3", 8, 16).count == 3);
  CHECK(resolve_nproc("auto", 0, 4).count == 4);
  CHECK(resolve_nproc("auto", 2, 4).count == 2);
  CHECK(resolve_nproc("cpu", 2, 4).count == 4);
  CHECK(resolve_nproc("gpu", 2, 4).count == 2);
  CHECK(resolve_nproc("gpu", 0, 4).error == "gpu: no GPU is visible on this node");
  CHECK_FALSE(resolve_nproc("0", 0, 4).error.empty());
}
