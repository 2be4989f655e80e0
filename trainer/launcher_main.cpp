// trainjob-trainer: reads the PET_* settings of a TrainJob pod and launches the local
// workers. The worker code (libtrainjob-trainer-worker.so, installed beside it) is loaded
// once and each worker is a fork, so libtorch starts once per node, not once per worker;
// without the library it runs the trainjob-trainer-worker program instead. Under torchrun,
// which has already launched us as a worker, it becomes the worker.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "devices.h"
#include "launcher.h"
#include "options.h"
#include "worker_entry.h"

namespace fs = std::filesystem;
using namespace trainjob::trainer;

namespace {

fs::path own_directory() {
  std::error_code error;
  return fs::read_symlink("/proc/self/exe", error).parent_path();
}

// The worker code, loaded into this process; null when the library is absent.
WorkerMain load_worker_library(std::string& error) {
  const std::string path = (own_directory() / "libtrainjob-trainer-worker.so").string();
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    error = dlerror();
    return nullptr;
  }
  return reinterpret_cast<WorkerMain>(dlsym(library, "trainjob_worker_main"));
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

  const std::string worker = (own_directory() / "trainjob-trainer-worker").string();
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
  // Libraries read thread settings when they load (OpenBLAS does), so the environment the
  // workers get must be in place before the worker code is.
  if (std::getenv("OMP_NUM_THREADS") == nullptr && plan.nproc_per_node > 1) {
    setenv("OMP_NUM_THREADS", "1", 1);
  }
  WorkerProgram program;
  program.path = worker;
  program.args = args;
  std::string load_error;
  program.entry = load_worker_library(load_error);
  return run_launcher(plan, program);
}
