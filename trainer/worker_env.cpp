#include "worker_env.h"

namespace trainjob::trainer {

int global_rank(const LaunchPlan& plan, int local_rank) {
  return plan.node_rank * plan.nproc_per_node + local_rank;
}

EnvVars worker_env(const LaunchPlan& plan, int local_rank, int attempt, bool omp_threads_set) {
  const int world_size = plan.nnodes * plan.nproc_per_node;
  const std::string rank = std::to_string(global_rank(plan, local_rank));
  EnvVars vars = {
      {"RANK", rank},
      {"LOCAL_RANK", std::to_string(local_rank)},
      {"WORLD_SIZE", std::to_string(world_size)},
      {"LOCAL_WORLD_SIZE", std::to_string(plan.nproc_per_node)},
      {"GROUP_RANK", std::to_string(plan.node_rank)},
      {"GROUP_WORLD_SIZE", std::to_string(plan.nnodes)},
      {"ROLE_NAME", "default"},
      {"ROLE_RANK", rank},
      {"ROLE_WORLD_SIZE", std::to_string(world_size)},
      {"MASTER_ADDR", plan.master_addr},
      {"MASTER_PORT", std::to_string(plan.master_port)},
      {"TORCHELASTIC_RESTART_COUNT", std::to_string(attempt)},
      {"TORCHELASTIC_MAX_RESTARTS", std::to_string(plan.max_restarts)},
      {"TORCHELASTIC_RUN_ID", "none"},
  };
  if (!omp_threads_set && plan.nproc_per_node > 1) vars.emplace_back("OMP_NUM_THREADS", "1");
  return vars;
}

}  // namespace trainjob::trainer
