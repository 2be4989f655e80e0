#include "k8s/container_rules.h"

#include <string>

#include <doctest/doctest.h>

#include "k8s/image_reference.h"

using trainjob::image_reference_problem;

TEST_CASE("image reference: what the kubelet can pull") {
  for (const char* image :
       {"nginx", "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", "localhost:5000/a/b:1",
        "[::1]:5000/x", "ghcr.io/kubeflow/trainer/torchtune-trainer", "My.Registry.io/x",
        "a__b/c---d/e.f_g:v1.0-rc",
        "docker.io/library/"
        "ubuntu@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "ubuntu:22.04@sha256:0123456789abcdef0123456789abcdef"}) {
    CAPTURE(image);
    CHECK(image_reference_problem(image).empty());
  }
}

TEST_CASE("image reference: what it refuses, and why") {
  CHECK(image_reference_problem("") == "it is empty");
  CHECK(image_reference_problem("<YOUR_REGISTRY>/x:latest") ==
        "'<' cannot appear in a reference: a placeholder left in?");
  CHECK(image_reference_problem(" pytorch/pytorch") ==
        "it contains whitespace or a control character");
  CHECK(image_reference_problem("pytorch/pytorch 2.5") ==
        "it contains whitespace or a control character");
  CHECK(image_reference_problem("pytorch:") == "the tag after ':' is empty");
  CHECK(image_reference_problem("x:-bad").find("the tag \"-bad\"") == 0);
  CHECK(image_reference_problem("x:" + std::string(129, 'a')) ==
        "the tag is longer than 128 characters");
  CHECK(image_reference_problem("UPPER") ==
        "the repository \"UPPER\" has upper-case letters, where only lower case is allowed");
  CHECK(image_reference_problem("pytorch/PyTorch:2") ==
        "the repository \"pytorch/PyTorch\" has upper-case letters, where only lower case is "
        "allowed");
  // Upper case in the first of several components makes it a registry host to the kubelet.
  CHECK(image_reference_problem("MyOrg/trainer")
            .find("\"MyOrg\" would be taken for a registry host") != std::string::npos);
  CHECK(image_reference_problem("a..b").find("component \"a..b\"") != std::string::npos);
  CHECK(image_reference_problem("a___b").find("component \"a___b\"") != std::string::npos);
  CHECK(image_reference_problem("a-/b").find("component \"a-\"") != std::string::npos);
  CHECK(image_reference_problem("a//b") ==
        "the repository path has an empty component, a '/' too many");
  CHECK(image_reference_problem(":tag") == "the repository name is empty");
  CHECK(image_reference_problem("reg:abc/x") == "the registry's port \"abc\" is not a number");
  CHECK(image_reference_problem("re_g.io/x").find("the registry \"re_g.io\"") == 0);
  CHECK(image_reference_problem("x@sha256:12").find("the digest") == 0);
  CHECK(image_reference_problem("x@" + std::string(40, 'a')).find("the digest") == 0);
  CHECK(image_reference_problem(std::string(256, 'a')) == "the name is longer than 255 characters");
  CHECK(image_reference_problem(std::string(64, 'f')).find("image ID") != std::string::npos);
  CHECK(image_reference_problem("${IMAGE}").find("'$'") == 0);
}

TEST_CASE("refused requests: above the limit, compared as quantities") {
  auto resources = trainjob::Json::parse(
      R"({"requests": {"cpu": "2", "memory": "1Gi", "nvidia.com/gpu": 1},
          "limits": {"cpu": "1500m", "memory": "1024Mi", "nvidia.com/gpu": 1}})");
  auto refused = trainjob::refused_requests(resources);
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].resource == "cpu");
  CHECK(trainjob::refused_request_reason(refused[0], "r") ==
        "r.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1500m");
  CHECK(trainjob::refused_requests(
            trainjob::Json::parse(R"({"requests": {"cpu": 2}, "limits": {"cpu": "bad"}})"))
            .empty());
  CHECK(trainjob::refused_requests(trainjob::Json::parse(R"({"requests": {"cpu": 2}})")).empty());
}

TEST_CASE("refused requests: what cannot be overcommitted needs a limit equal to the request") {
  using trainjob::refused_requests;
  auto alone = refused_requests(trainjob::Json::parse(
      R"({"requests": {"nvidia.com/gpu": 1, "hugepages-2Mi": "4Mi", "example.kubernetes.io/x": 1}})"));
  REQUIRE(alone.size() == 2);
  CHECK(alone[0].resource == "nvidia.com/gpu");
  CHECK(alone[0].limit.empty());
  CHECK(alone[1].resource == "hugepages-2Mi");
  CHECK(trainjob::refused_request_reason(alone[0], "r") ==
        "r.limits: Required value: Limit must be set for non overcommitable resources");
  auto below = refused_requests(
      trainjob::Json::parse(R"({"requests": {"amd.com/gpu": 1}, "limits": {"amd.com/gpu": 2}})"));
  REQUIRE(below.size() == 1);
  CHECK(trainjob::refused_request_reason(below[0], "r") ==
        "r.requests: Invalid value: \"1\": must be equal to amd.com/gpu limit of 2");
  CHECK(refused_requests(trainjob::Json::parse(R"({"limits": {"nvidia.com/gpu": 1}})")).empty());
}

TEST_CASE("torchrun --nnodes: fixed counts only, in any form a command line gives it") {
  using trainjob::torchrun_fixed_nodes;
  auto nodes = torchrun_fixed_nodes({"torchrun", "--nnodes=2", "train.py"});
  REQUIRE(nodes);
  CHECK(nodes->nodes == 2);
  CHECK(nodes->word == 1);
  CHECK(nodes->text == "--nnodes=2");
  nodes = torchrun_fixed_nodes({"bash", "-c", "pip install x && torchrun --nnodes 4 t.py"});
  REQUIRE(nodes);
  CHECK(nodes->nodes == 4);
  CHECK(nodes->word == 2);
  CHECK(nodes->text == "--nnodes 4");
  nodes = torchrun_fixed_nodes({"python", "-m", "torch.distributed.run", "--nnodes", "3"});
  REQUIRE(nodes);
  CHECK(nodes->word == 4);
  CHECK_FALSE(torchrun_fixed_nodes({"torchrun", "--nnodes=1:4", "t.py"}));
  CHECK_FALSE(torchrun_fixed_nodes({"torchrun", "--nnodes=$(PET_NNODES)", "t.py"}));
  CHECK_FALSE(torchrun_fixed_nodes({"python", "t.py", "--nnodes=2"}));
  CHECK_FALSE(torchrun_fixed_nodes({"torchrun", "t.py"}));
}

TEST_CASE("container_word_field: a word of command then args, back to its field") {
  using trainjob::container_word_field;
  trainjob::Json container = {{"command", {"torchrun"}}, {"args", {"--nnodes=2", "t.py"}}};
  auto field = container_word_field(container, 0);
  CHECK(std::string(field.first) == "command");
  CHECK(field.second == 0);
  field = container_word_field(container, 2);
  CHECK(std::string(field.first) == "args");
  CHECK(field.second == 1);
  field = container_word_field(trainjob::Json{{"args", {"x"}}}, 0);
  CHECK(std::string(field.first) == "args");
  CHECK(field.second == 0);
}

TEST_CASE("torchrun --nproc_per_node: either spelling, fixed counts only") {
  using trainjob::torchrun_fixed_procs;
  auto procs = torchrun_fixed_procs({"torchrun", "--standalone", "--nproc_per_node=4", "t.py"});
  REQUIRE(procs);
  CHECK(procs->nodes == 4);
  CHECK(procs->word == 2);
  CHECK(procs->text == "--nproc_per_node=4");
  procs = torchrun_fixed_procs({"bash", "-c", "torchrun --nnodes=2 --nproc-per-node 8 t.py"});
  REQUIRE(procs);
  CHECK(procs->nodes == 8);
  CHECK(procs->text == "--nproc-per-node 8");
  CHECK_FALSE(torchrun_fixed_procs({"torchrun", "--nproc_per_node=$(PET_NPROC_PER_NODE)"}));
  CHECK_FALSE(torchrun_fixed_procs({"torchrun", "--nproc_per_node=gpu", "t.py"}));
  CHECK_FALSE(torchrun_fixed_procs({"python", "t.py", "--nproc_per_node=4"}));
  // --nnodes is not taken for it, nor it for --nnodes.
  CHECK_FALSE(torchrun_fixed_procs({"torchrun", "--nnodes=2", "t.py"}));
  CHECK_FALSE(trainjob::torchrun_fixed_nodes({"torchrun", "--nproc_per_node=2", "t.py"}));
}

TEST_CASE("container_gpus: a */gpu resource of the limits, else the requests") {
  using trainjob::container_gpus;
  using trainjob::Json;
  auto gpus = container_gpus(Json::parse(
      R"({"resources": {"limits": {"cpu": "4", "nvidia.com/gpu": 2}, "requests": {"amd.com/gpu": 1}}})"));
  REQUIRE(gpus);
  CHECK(gpus->resource == "nvidia.com/gpu");
  CHECK(gpus->count == 2);
  gpus = container_gpus(Json::parse(R"({"resources": {"requests": {"amd.com/gpu": "8"}}})"));
  REQUIRE(gpus);
  CHECK(gpus->resource == "amd.com/gpu");
  CHECK(gpus->count == 8);
  CHECK_FALSE(container_gpus(Json::parse(R"({"resources": {"limits": {"cpu": "4"}}})")));
  CHECK_FALSE(container_gpus(Json::parse(R"({"resources": {"limits": {"example.com/gpus": 1}}})")));
  CHECK_FALSE(container_gpus(Json::parse(R"({"name": "node"})")));
}

TEST_CASE("procs_over_gpus_problem: only more processes than GPUs is one") {
  using trainjob::procs_over_gpus_problem;
  trainjob::GpuRequest four{"nvidia.com/gpu", 4};
  CHECK(procs_over_gpus_problem("numProcPerNode 4", 4, four).empty());
  CHECK(procs_over_gpus_problem("numProcPerNode 2", 2, four).empty());
  CHECK(procs_over_gpus_problem("x", 8, trainjob::GpuRequest{"nvidia.com/gpu", 0}).empty());
  CHECK(procs_over_gpus_problem("numProcPerNode 8", 8, four) ==
        "numProcPerNode 8 starts 8 processes on each node, but each node gets 4 GPUs "
        "(nvidia.com/gpu: 4): each process takes the GPU of its LOCAL_RANK, so those beyond 4 "
        "find none (CUDA: invalid device ordinal) or share one");
}
