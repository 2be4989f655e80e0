// What the launcher starts: the plan of the local worker group from the options, the
// command each worker runs, and the environment of one worker, as torchrun's static
// rendezvous gives it.
#ifndef TRAINJOB_TRAINER_LAUNCH_WORKER_ENV_H_
#define TRAINJOB_TRAINER_LAUNCH_WORKER_ENV_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "settings/options.h"

namespace trainjob::trainer {

/// The local worker group, as plan_launch settles it.
struct LaunchPlan {
  int nnodes = 1;
  int nproc_per_node = 1;
  int node_rank = 0;
  std::string master_addr;
  int master_port = 0;
  int max_restarts = 0;
  std::string role = "default";
  std::string run_id = "none";
};

/// What plan_launch needs to know of this node.
struct NodeFacts {
  int visible_gpus = 0;
  int usable_cpus = 1;
  std::function<int()> free_port;  ///< --standalone: a port nobody listens on
};

/// The worker group for `options`: --nproc-per-node resolved, --rdzv-endpoint or
/// --standalone applied over --master-addr/--master-port. Returns false with `*error`
/// (naming the flag) when the node rank is out of range or the count cannot be resolved.
bool plan_launch(const Options& options, const NodeFacts& node, LaunchPlan* plan,
                 std::string* error);

/// The command each worker runs for a SCRIPT: `python3 -u SCRIPT ARGS...` (as torchrun,
/// unbuffered), `python3 -u -m MODULE ARGS...`, or `SCRIPT ARGS...` with --no-python.
/// Empty when no script was given (the C++ worker runs).
std::vector<std::string> script_command(const Options& options);

/// NAME, value pairs, in the order they are set.
using EnvVars = std::vector<std::pair<std::string, std::string>>;

/// Global rank of a local worker: ranks are numbered node by node.
int global_rank(const LaunchPlan& plan, int local_rank);

/// Variables set for local worker `local_rank` on restart `attempt` (0 first). OMP_NUM_THREADS
/// is set to 1 only when it is unset and several workers share the node, as torchrun does.
/// TORCHELASTIC_USE_AGENT_STORE is False: no agent hosts a store here, so global rank 0
/// serves it at MASTER_ADDR:MASTER_PORT, as a worker does under torchrun without an agent.
EnvVars worker_env(const LaunchPlan& plan, int local_rank, int attempt, bool omp_threads_set);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_LAUNCH_WORKER_ENV_H_
