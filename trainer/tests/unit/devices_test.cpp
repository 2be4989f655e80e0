// The GPU decisions, tested without a GPU: they take what the node offers as plain values.
// What runs here: the backend choice (auto, gloo, nccl) for each combination of a build with
// or without NCCL and a node with or without a GPU, and the GPU of each local rank. What
// does not: NCCL itself (the Debian libtorch has no CUDA), so connect_workers' NCCL branch
// is compiled only where libtorch carries it. No libtorch header here: glog's CHECK would
// replace doctest's.
#include "settings/devices.h"

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

/// What each kind of node offers: a CPU-only libtorch, a CUDA one on a node without a GPU,
/// a CUDA one with a GPU, and a CUDA one built without NCCL on a node with a GPU.
const BackendSupport kCpuBuild{false, false, false};
const BackendSupport kCudaBuildNoGpu{true, false, true};
const BackendSupport kCudaBuildGpu{true, true, true};
const BackendSupport kCudaNoNccl{false, true, true};

struct Placed {
  bool ok = false;
  Placement placement;
  std::string error;
  std::string where() const { return placement.backend + "/" + placement.device; }
};

Placed place(const std::string& backend, const std::string& device, const BackendSupport& support) {
  Placed placed;
  placed.ok = choose_placement(backend, device, support, &placed.placement, &placed.error);
  return placed;
}

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
        "local rank 2 has no GPU of its own: 2 visible (NCCL needs one per local rank: lower "
        "--nproc-per-node, or share the GPUs with --backend gloo --device cuda)");
  error.clear();
  CHECK(gpu_for_local_rank(0, 0, &error) == -1);
  CHECK(error.find("0 visible") != std::string::npos);
}

TEST_CASE("devices: --device auto follows the backend, as before the flag") {
  CHECK(place("auto", "auto", kCudaBuildGpu).where() == "nccl/cuda");
  CHECK(place("auto", "auto", kCudaBuildNoGpu).where() == "gloo/cpu");
  CHECK(place("auto", "auto", kCpuBuild).where() == "gloo/cpu");
  CHECK(place("gloo", "auto", kCudaBuildGpu).where() == "gloo/cpu");
  CHECK(place("nccl", "auto", kCudaBuildGpu).where() == "nccl/cuda");
  CHECK(place("nccl", "auto", kCpuBuild).error ==
        "--backend nccl: this build has no NCCL (its libtorch was built without CUDA)");
}

TEST_CASE("devices: --device cpu keeps a GPU node's workers on gloo") {
  CHECK(place("auto", "cpu", kCudaBuildGpu).where() == "gloo/cpu");
  CHECK(place("gloo", "cpu", kCudaBuildGpu).where() == "gloo/cpu");
  Placed nccl = place("nccl", "cpu", kCudaBuildGpu);
  CHECK_FALSE(nccl.ok);
  CHECK(nccl.error == "--device cpu: NCCL runs on GPUs only (use --backend gloo)");
}

TEST_CASE("devices: --device cuda takes NCCL where it runs, else gloo over CUDA tensors") {
  CHECK(place("auto", "cuda", kCudaBuildGpu).where() == "nccl/cuda");
  CHECK(place("gloo", "cuda", kCudaBuildGpu).where() == "gloo/cuda");
  CHECK(place("auto", "cuda", kCudaNoNccl).where() == "gloo/cuda");
  Placed cpu_build = place("gloo", "cuda", kCpuBuild);
  CHECK_FALSE(cpu_build.ok);
  CHECK(cpu_build.error == "--device cuda: this build's libtorch has no CUDA");
  Placed no_gpu = place("auto", "cuda", kCudaBuildNoGpu);
  CHECK_FALSE(no_gpu.ok);
  CHECK(no_gpu.error == "--device cuda: no GPU is visible");
  CHECK(place("nccl", "cuda", kCudaBuildNoGpu).error == "--backend nccl: no GPU is visible");
}

TEST_CASE("devices: gloo's ranks share the GPUs, NCCL's each need their own") {
  std::string error;
  CHECK(gpu_for_worker("gloo", 0, 1, &error) == 0);
  CHECK(gpu_for_worker("gloo", 1, 1, &error) == 0);
  CHECK(gpu_for_worker("gloo", 3, 2, &error) == 1);
  CHECK(error.empty());
  CHECK(gpu_for_worker("gloo", 0, 0, &error) == -1);
  CHECK(error == "--device cuda: no GPU is visible");
  error.clear();
  CHECK(gpu_for_worker("nccl", 1, 2, &error) == 1);
  CHECK(gpu_for_worker("nccl", 1, 1, &error) == -1);
  CHECK(error.rfind("local rank 1 has no GPU of its own: 1 visible", 0) == 0);
}
