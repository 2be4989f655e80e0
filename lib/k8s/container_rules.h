// What the API server refuses in a container's resources, or what makes a container's
// command fail in every pod, found in plain values: the compiler maps each finding back to
// the TrainJob or runtime field it came from, the legacy kinds to the user's own field.
#ifndef TRAINJOB_K8S_CONTAINER_RULES_H_
#define TRAINJOB_K8S_CONTAINER_RULES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// A resource request the API server refuses: one above its limit (`cpu: 2` requested,
/// `cpu: 1` the limit), or one of a resource that cannot be overcommitted (an extended
/// resource such as `nvidia.com/gpu`, or hugepages) without a limit or with another limit.
struct RefusedRequest {
  std::string resource;
  std::string request;  ///< as written (a number printed as JSON prints it)
  std::string limit;    ///< empty when there is none
};

/// Every such request of a ResourceRequirements (`{requests, limits}`), in the order of
/// `requests`. Quantities that do not parse are left to the quantity checks.
std::vector<RefusedRequest> refused_requests(const Json& resources);

/// The API server's words for one, with the field of the Job's container it names (under
/// `resources_field`, e.g. `spec.template.spec.containers[0].resources`): `…requests:
/// Invalid value: "2": must be less than or equal to cpu limit of 1`.
std::string refused_request_reason(const RefusedRequest& refused,
                                   const std::string& resources_field);

/// The error for one, as render and the legacy kinds report it: `cpu request 2 is above its
/// limit 1<where>: the API server refuses the Jobs (<reason>)`, where `where` is empty or
/// names the container (" in container ...").
std::string refused_request_message(const RefusedRequest& refused, const std::string& where,
                                    const std::string& resources_field);

/// `--nnodes` of a torchrun command line (torchrun, or python -m torch.distributed.run or
/// .launch), when it gives a fixed count.
struct TorchrunNodes {
  size_t word = 0;  ///< the index in the words of the word that holds the value
  int64_t nodes = 0;
  std::string text;  ///< as written: `--nnodes=2`, `--nnodes 2`
};

/// Looks for a launcher and its `--nnodes=N` or `--nnodes N` in `words` (a container's
/// command then args; a word may be a whole shell line, as in `bash -c "..."`). Nothing for
/// an elastic range `N:M`, a variable (`$PET_NNODES`), or no launcher.
std::optional<TorchrunNodes> torchrun_fixed_nodes(const std::vector<std::string>& words);

/// What a `--nnodes` that differs from the job's `job_nodes` does, in a sentence.
std::string torchrun_nodes_problem(const TorchrunNodes& nodes, int64_t job_nodes);

/// The command then the args of a container (a word that is no string as an empty one).
std::vector<std::string> container_words(const Json& container);

/// `--nproc_per_node=N` (or `--nproc-per-node`, either with a space) of a torchrun command
/// line, when it gives a fixed count: how many processes, so GPUs, torchrun starts per node.
/// Nothing for `$(PET_NPROC_PER_NODE)`, `gpu`, `auto`, or no launcher.
std::optional<TorchrunNodes> torchrun_fixed_procs(const std::vector<std::string>& words);

/// The GPUs a container asks for: the first resource named `<vendor>/gpu` (nvidia.com/gpu,
/// amd.com/gpu) with a whole count, in its limits, else its requests.
struct GpuRequest {
  std::string resource;
  int64_t count = 0;
};
std::optional<GpuRequest> container_gpus(const Json& container);

/// What `procs` processes per node (`what` as written: `numProcPerNode 8`,
/// `torchrun --nproc_per_node=4`) on `gpus` each do, in a sentence; empty when they fit.
/// Each process takes the GPU of its LOCAL_RANK, so those beyond the count find none.
std::string procs_over_gpus_problem(const std::string& what, int64_t procs, const GpuRequest& gpus);

/// Where word `word` of container_words(container) is written: ("command", k) or ("args", k).
std::pair<const char*, size_t> container_word_field(const Json& container, size_t word);

}  // namespace trainjob

#endif  // TRAINJOB_K8S_CONTAINER_RULES_H_
