// What this node offers the workers: GPUs and CPUs, counted without loading CUDA, and the
// decisions that follow from them (which backend, which GPU a rank drives), kept free of
// libtorch so that they are tested on machines without a GPU.
#ifndef TRAINJOB_TRAINER_SETTINGS_DEVICES_H_
#define TRAINJOB_TRAINER_SETTINGS_DEVICES_H_

#include <string>

namespace trainjob::trainer {

/// GPUs a process may use: the entries of CUDA_VISIBLE_DEVICES when it is set, else the
/// NVIDIA device files (/dev/nvidia0, /dev/nvidia1, ...).
int visible_gpu_count();

/// Entries of a CUDA_VISIBLE_DEVICES value; an empty value or one starting with -1 hides all.
int count_cuda_visible_devices(const std::string& value);

/// CPUs in this process's affinity mask.
int usable_cpu_count();

/// What the collective backend can use here: NCCL needs both a libtorch built with it and a
/// GPU that CUDA sees.
struct BackendSupport {
  bool nccl_compiled = false;
  bool cuda_available = false;
  bool cuda_compiled = false;  ///< libtorch has CUDA (a gloo group can then sum CUDA tensors)
};

/// The backend for --backend auto|gloo|nccl: auto takes NCCL when it can run, gloo otherwise;
/// nccl where it cannot run is an error (the worker exits 1 with it), not a quiet fallback to a
/// backend many times slower.
bool choose_backend(const std::string& requested, const BackendSupport& support,
                    std::string* chosen, std::string* error);

/// Where a worker trains and how its group sums: the backend, and "cpu" or "cuda".
struct Placement {
  std::string backend;
  std::string device;
};

/// --backend with --device auto|cpu|cuda. auto: NCCL's workers on their GPU, gloo's on the
/// CPU. cpu: gloo (an explicit nccl is an error). cuda: NCCL where it can run, else gloo over
/// CUDA tensors, which needs a CUDA libtorch and a GPU.
bool choose_placement(const std::string& backend, const std::string& device,
                      const BackendSupport& support, Placement* placement, std::string* error);

/// The GPU a worker of `backend` drives: NCCL's, gpu_for_local_rank; gloo's, local ranks
/// round-robin over the GPUs, since gloo lets ranks share one and NCCL refuses it.
int gpu_for_worker(const std::string& backend, int local_rank, int gpu_count, std::string* error);

/// The GPU a NCCL worker drives: one per local rank, as torchrun's LOCAL_RANK convention has
/// it. -1 with `*error` set when the node has fewer GPUs than local ranks, which CUDA would
/// otherwise report as an invalid device ordinal in the middle of the rendezvous; two ranks
/// on one GPU NCCL would refuse only once the group is formed, as a duplicate GPU.
int gpu_for_local_rank(int local_rank, int gpu_count, std::string* error);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_SETTINGS_DEVICES_H_
