#include "launch/worker_env.h"

#include <cstdlib>

namespace trainjob::trainer {
namespace {

/// torchrun's default port of a c10d rendezvous endpoint given without one.
constexpr int kC10dDefaultPort = 29400;

/// HOST[:PORT] of --rdzv-endpoint (checked by the options) over the master's address.
void apply_endpoint(const Options& options, LaunchPlan* plan) {
  const std::string& endpoint = options.rdzv_endpoint;
  size_t colon = endpoint.rfind(':');
  bool has_port = colon != std::string::npos && endpoint.find(']', colon) == std::string::npos;
  plan->master_addr = endpoint.substr(0, has_port ? colon : std::string::npos);
  if (has_port) {
    plan->master_port = std::atoi(endpoint.c_str() + colon + 1);
  } else if (options.rdzv_backend == "c10d") {
    plan->master_port = kC10dDefaultPort;
  }
}

}  // namespace

bool plan_launch(const Options& options, const NodeFacts& node, LaunchPlan* plan,
                 std::string* error) {
  ResolvedCount nproc = resolve_nproc(options.nproc_per_node, node.visible_gpus, node.usable_cpus);
  if (!nproc.error.empty()) {
    *error = "--nproc-per-node: " + nproc.error;
    return false;
  }
  plan->nnodes = options.nnodes;
  plan->nproc_per_node = nproc.count;
  plan->node_rank = options.node_rank;
  plan->master_addr = options.master_addr;
  plan->master_port = options.master_port;
  plan->max_restarts = options.max_restarts;
  plan->role = options.role;
  plan->run_id = options.rdzv_id;
  if (!options.rdzv_endpoint.empty()) apply_endpoint(options, plan);
  if (options.standalone) {
    // torchrun --standalone: a single node whose rendezvous is on this machine.
    plan->nnodes = 1;
    plan->node_rank = 0;
    plan->master_addr = "127.0.0.1";
    if (node.free_port) plan->master_port = node.free_port();
  }
  if (plan->node_rank >= plan->nnodes) {
    *error = "--node-rank: expected 0 … " + std::to_string(plan->nnodes - 1) + " for --nnodes " +
             std::to_string(plan->nnodes) + ", found " + std::to_string(plan->node_rank);
    return false;
  }
  return true;
}

std::vector<std::string> script_command(const Options& options) {
  if (options.script.empty()) return {};
  std::vector<std::string> command;
  if (!options.no_python) {
    command = {options.python, "-u"};
    if (options.module) command.emplace_back("-m");
  }
  command.push_back(options.script);
  command.insert(command.end(), options.script_args.begin(), options.script_args.end());
  return command;
}

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
      {"ROLE_NAME", plan.role},
      {"ROLE_RANK", rank},
      {"ROLE_WORLD_SIZE", std::to_string(world_size)},
      {"MASTER_ADDR", plan.master_addr},
      {"MASTER_PORT", std::to_string(plan.master_port)},
      {"TORCHELASTIC_RESTART_COUNT", std::to_string(attempt)},
      {"TORCHELASTIC_MAX_RESTARTS", std::to_string(plan.max_restarts)},
      {"TORCHELASTIC_RUN_ID", plan.run_id},
      {"TORCHELASTIC_USE_AGENT_STORE", "False"},
  };
  if (!omp_threads_set && plan.nproc_per_node > 1) vars.emplace_back("OMP_NUM_THREADS", "1");
  return vars;
}

}  // namespace trainjob::trainer
