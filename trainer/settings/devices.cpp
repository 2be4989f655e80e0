#include "settings/devices.h"

#include <cstdlib>
#include <filesystem>
#include <sched.h>

namespace trainjob::trainer {

int count_cuda_visible_devices(const std::string& value) {
  int count = 0;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string entry = value.substr(start, comma == std::string::npos ? comma : comma - start);
    // CUDA stops at the first invalid entry; -1 is the conventional "none".
    if (entry.empty() || entry.rfind("-1", 0) == 0) break;
    ++count;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return count;
}

int visible_gpu_count() {
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    return count_cuda_visible_devices(visible);
  }
  int count = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", error)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 6 && name.rfind("nvidia", 0) == 0 &&
        name.find_first_not_of("0123456789", 6) == std::string::npos) {
      ++count;
    }
  }
  return count;
}

int usable_cpu_count() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  int count = CPU_COUNT(&set);
  return count > 0 ? count : 1;
}

bool choose_backend(const std::string& requested, const BackendSupport& support,
                    std::string* chosen, std::string* error) {
  if (requested == "gloo") {
    *chosen = "gloo";
    return true;
  }
  const bool gpu = support.nccl_compiled && support.cuda_available;
  if (requested == "auto") {
    *chosen = gpu ? "nccl" : "gloo";
    return true;
  }
  if (!support.nccl_compiled) {
    *error = "--backend nccl: this build has no NCCL (its libtorch was built without CUDA)";
    return false;
  }
  if (!gpu) {
    *error = "--backend nccl: no GPU is visible";
    return false;
  }
  *chosen = "nccl";
  return true;
}

bool choose_placement(const std::string& backend, const std::string& device,
                      const BackendSupport& support, Placement* placement, std::string* error) {
  if (device == "cpu" && backend == "nccl") {
    *error = "--device cpu: NCCL runs on GPUs only (use --backend gloo)";
    return false;
  }
  // On the CPU only gloo can sum; auto must not pick NCCL there.
  const std::string requested = device == "cpu" ? "gloo" : backend;
  if (!choose_backend(requested, support, &placement->backend, error)) return false;
  if (placement->backend == "nccl") {
    placement->device = "cuda";
    return true;
  }
  if (device != "cuda") {
    placement->device = "cpu";
    return true;
  }
  if (!support.cuda_compiled) {
    *error = "--device cuda: this build's libtorch has no CUDA";
    return false;
  }
  if (!support.cuda_available) {
    *error = "--device cuda: no GPU is visible";
    return false;
  }
  placement->device = "cuda";
  return true;
}

int gpu_for_local_rank(int local_rank, int gpu_count, std::string* error) {
  if (local_rank >= 0 && local_rank < gpu_count) return local_rank;
  *error = "local rank " + std::to_string(local_rank) +
           " has no GPU of its own: " + std::to_string(gpu_count) +
           " visible (NCCL needs one per local rank: lower --nproc-per-node, or share the GPUs "
           "with --backend gloo --device cuda)";
  return -1;
}

int gpu_for_worker(const std::string& backend, int local_rank, int gpu_count, std::string* error) {
  if (backend == "nccl") return gpu_for_local_rank(local_rank, gpu_count, error);
  if (gpu_count < 1) {
    *error = "--device cuda: no GPU is visible";
    return -1;
  }
  return local_rank % gpu_count;
}

}  // namespace trainjob::trainer
