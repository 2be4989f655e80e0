// The GPU decisions, tested without a GPU: they take what the node offers as plain values.
// What runs here: the backend choice (auto, gloo, nccl) for each combination of a build with
// or without NCCL and a node with or without a GPU, and the GPU of each local rank. What
// does not: NCCL itself (the Debian libtorch has no CUDA), so connect_workers' NCCL branch
// is compiled only where libtorch carries it. No libtorch header here: glog's CHECK would
// replace doctest's.
#include "devices.h"

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

struct Choice {
  bool ok = false;
  std::string chosen;
  std::string error;
};

Choice choose(const std::string& requested, bool nccl_compiled, bool cuda_available) {
  Choice choice;
  choice.ok = choose_backend(requested, BackendSupport{nccl_compiled, cuda_available},
                             &choice.chosen, &choice.error);
  return choice;
}

}  // namespace

TEST_CASE("devices: auto takes NCCL only where it can run") {
  CHECK(choose("auto", true, true).chosen == "nccl");
  CHECK(choose("auto", true, false).chosen == "gloo");  // a CUDA build on a CPU node
  CHECK(choose("auto", false, false).chosen == "gloo");
  CHECK(choose("auto", false, true).chosen == "gloo");  // a GPU but no NCCL in the build
}

TEST_CASE("devices: gloo is always possible, nccl only with a GPU and NCCL") {
  CHECK(choose("gloo", true, true).chosen == "gloo");
  CHECK(choose("gloo", false, false).ok);
  Choice no_gpu = choose("nccl", true, false);
  CHECK_FALSE(no_gpu.ok);
  CHECK(no_gpu.error == "--backend nccl: no GPU is visible");
  Choice no_nccl = choose("nccl", false, true);
  CHECK_FALSE(no_nccl.ok);
  CHECK(no_nccl.error ==
        "--backend nccl: this build has no NCCL (its libtorch was built without CUDA)");
  CHECK(choose("nccl", true, true).chosen == "nccl");
}

TEST_CASE("devices: each local rank drives the GPU of its number") {
  std::string error;
  CHECK(gpu_for_local_rank(0, 1, &error) == 0);
  CHECK(gpu_for_local_rank(3, 4, &error) == 3);
  CHECK(error.empty());
  CHECK(gpu_for_local_rank(2, 2, &error) == -1);
  CHECK(error ==
        "local rank 2 has no GPU of its own: 2 visible (one per local rank; lower "
        "--nproc-per-node)");
  error.clear();
  CHECK(gpu_for_local_rank(0, 0, &error) == -1);
  CHECK(error.find("0 visible") != std::string::npos);
}
