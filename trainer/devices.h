// What this node offers the workers: GPUs and CPUs, counted without loading CUDA.
#pragma once

#include <optional>
#include <string>

namespace trainjob::trainer {

// GPUs a process may use: the entries of CUDA_VISIBLE_DEVICES when it is set, else the
// NVIDIA device files (/dev/nvidia0, /dev/nvidia1, ...).
int visible_gpu_count();

// Entries of a CUDA_VISIBLE_DEVICES value; an empty value or one starting with -1 hides all.
int count_cuda_visible_devices(const std::string& value);

// CPUs in this process's affinity mask.
int usable_cpu_count();

}  // namespace trainjob::trainer
