// Flags and PET_* / TRAINER_* variables: flags win, bad values are named.
#include "options.h"

#include <map>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

EnvLookup env_of(const std::map<std::string, std::string>& values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
}

}  // namespace

TEST_CASE("options: the PET_* variables the torch policy injects configure the launcher") {
  ParsedOptions parsed = parse_options({}, env_of({{"PET_NNODES", "2"},
                                                   {"PET_NPROC_PER_NODE", "auto"},
                                                   {"PET_NODE_RANK", "1"},
                                                   {"PET_MASTER_ADDR", "job-node-0-0.job"},
                                                   {"PET_MASTER_PORT", "29500"}}));
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.nnodes == 2);
  CHECK(parsed.options.nproc_per_node == "auto");
  CHECK(parsed.options.node_rank == 1);
  CHECK(parsed.options.master_addr == "job-node-0-0.job");
  CHECK(parsed.options.master_port == 29500);
}

TEST_CASE("options: a flag wins over its variable, in either spelling") {
  auto env = env_of({{"PET_NODE_RANK", "1"}, {"TRAINER_EPOCHS", "7"}});
  ParsedOptions parsed = parse_options({"--node_rank", "0", "--epochs=3", "--ddp", "flat"}, env);
  REQUIRE(parsed.error.empty());
  CHECK(parsed.options.node_rank == 0);
  CHECK(parsed.options.epochs == 3);
  CHECK(parsed.options.ddp == DdpMode::flat);
}

TEST_CASE("options: PET_NNODES accepts N and N:N, and refuses elastic ranges") {
  CHECK(parse_options({}, env_of({{"PET_NNODES", "3:3"}})).options.nnodes == 3);
  ParsedOptions elastic = parse_options({}, env_of({{"PET_NNODES", "1:4"}}));
  CHECK(elastic.exit_code == 1);
  CHECK(elastic.error.find("PET_NNODES: elastic ranges are not supported") == 0);
}

TEST_CASE("options: a bad variable exits 1, a bad flag 2, and both name the setting") {
  ParsedOptions env_error = parse_options({}, env_of({{"PET_NPROC_PER_NODE", "npu"}}));
  CHECK(env_error.exit_code == 1);
  CHECK(env_error.error ==
        "PET_NPROC_PER_NODE: expected an integer ≥ 1 or one of auto, cpu, gpu, found \"npu\"");
  ParsedOptions flag_error = parse_options({"--master-port", "70000"}, env_of({}));
  CHECK(flag_error.exit_code == 2);
  CHECK(flag_error.error == "--master-port: expected a port number 1–65535, found \"70000\"");
  CHECK(parse_options({"--bogus", "1"}, env_of({})).error == "unknown flag --bogus; see --help");
  CHECK(parse_options({"--epochs"}, env_of({})).error == "--epochs: expected a value");
  CHECK(parse_options({"train.py"}, env_of({})).exit_code == 2);
  CHECK(parse_options({"--model", "resnet"}, env_of({})).error ==
        "--model: expected one of linear, mnist-cnn, found \"resnet\"");
}

TEST_CASE("options: --help lists every flag with its variable") {
  CHECK(parse_options({"--help"}, env_of({})).help);
  const std::string help = help_text();
  for (const char* name :
       {"--nnodes", "PET_NNODES", "--nproc-per-node", "PET_NPROC_PER_NODE", "--node-rank",
        "PET_NODE_RANK", "--master-addr", "PET_MASTER_ADDR", "--master-port", "PET_MASTER_PORT",
        "--max-restarts", "--rdzv-timeout", "--backend", "--model", "--data-dir",
        "--checkpoint-dir", "--ddp", "--bucket-cap-mb", "GLOO_SOCKET_IFNAME"}) {
    CHECK_MESSAGE(help.find(name) != std::string::npos, name);
  }
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
