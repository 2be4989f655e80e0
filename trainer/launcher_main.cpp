// trainjob-trainer: reads the PET_* settings of a TrainJob pod and launches the local
// workers (trainjob-trainer-worker, installed beside it). Under torchrun, which has already
// launched us as a worker, it becomes the worker.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "devices.h"
#include "launcher.h"
#include "options.h"

namespace fs = std::filesystem;
using namespace trainjob::trainer;

namespace {

std::string worker_binary() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return (self.parent_path() / "trainjob-trainer-worker").string();
}

int fail(const std::string& message, int exit_code) {
  std::fprintf(stderr, "trainjob-trainer: error: %s\n", message.c_str());
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  ParsedOptions parsed = parse_options(args, process_env());
  if (parsed.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (!parsed.error.empty()) return fail(parsed.error, parsed.exit_code);
  const Options& options = parsed.options;

  const std::string worker = worker_binary();
  if (access(worker.c_str(), X_OK) != 0) {
    return fail("cannot run the worker " + worker + ": " + std::strerror(errno), 1);
  }
  if (std::getenv("LOCAL_RANK") != nullptr) {
    // torchrun (or another launcher) has already set RANK, WORLD_SIZE and the rest.
    std::vector<char*> worker_argv(argv, argv + argc + 1);
    worker_argv[0] = const_cast<char*>(worker.c_str());
    execv(worker.c_str(), worker_argv.data());
    return fail("cannot run the worker " + worker + ": " + std::strerror(errno), 1);
  }

  ResolvedCount nproc =
      resolve_nproc(options.nproc_per_node, visible_gpu_count(), usable_cpu_count());
  if (!nproc.error.empty()) return fail("--nproc-per-node: " + nproc.error, 1);
  if (options.node_rank >= options.nnodes) {
    return fail("--node-rank: expected 0 … " + std::to_string(options.nnodes - 1) +
                    " for --nnodes " + std::to_string(options.nnodes) + ", found " +
                    std::to_string(options.node_rank),
                1);
  }
  LaunchPlan plan;
  plan.nnodes = options.nnodes;
  plan.nproc_per_node = nproc.count;
  plan.node_rank = options.node_rank;
  plan.master_addr = options.master_addr;
  plan.master_port = options.master_port;
  plan.max_restarts = options.max_restarts;
  return run_launcher(plan, worker, args);
}
