// The environment of one worker, as torchrun's static rendezvous gives it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace trainjob::trainer {

struct LaunchPlan {
  int nnodes = 1;
  int nproc_per_node = 1;
  int node_rank = 0;
  std::string master_addr;
  int master_port = 0;
  int max_restarts = 0;
};

using EnvVars = std::vector<std::pair<std::string, std::string>>;

// Global rank of a local worker: ranks are numbered node by node.
int global_rank(const LaunchPlan& plan, int local_rank);

// Variables set for local worker `local_rank` on restart `attempt` (0 first). OMP_NUM_THREADS
// is set to 1 only when it is unset and several workers share the node, as torchrun does.
EnvVars worker_env(const LaunchPlan& plan, int local_rank, int attempt, bool omp_threads_set);

}  // namespace trainjob::trainer
