// numProcPerNode resolution of the torch policy (Trainer v2.1.0 rules).
#ifndef TRAINJOB_MODEL_NUM_PROC_H_
#define TRAINJOB_MODEL_NUM_PROC_H_

#include <optional>
#include <string>

#include "load/json.h"

namespace trainjob {

/// The quantity of the first resource whose name contains "gpu" (any case) in
/// `requests`, else in `limits`, rounded up; 0 when there is none. Names are visited
/// in sorted order so the answer does not depend on map order.
int64_t gpu_count(const Json& resources);
/// requests.cpu when non-zero, else limits.cpu, rounded up; 0 when neither is set.
int64_t cpu_count(const Json& resources);

/// PET_NPROC_PER_NODE for `num_proc` (an integer, or "auto", "cpu", "gpu") given the
/// node's resources (a ResourceRequirements object, or null):
/// "cpu", and "auto" without GPUs, become max(1, CPUs); "auto" with GPUs and "gpu" stay
/// as they are, for torchrun to resolve; integers are printed as they are.
/// Resource quantities must already be known to parse.
std::string resolve_num_proc_per_node(const Json& num_proc, const Json& resources);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_NUM_PROC_H_
