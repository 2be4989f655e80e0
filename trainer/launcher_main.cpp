// trainjob-trainer: reads the PET_* settings of a TrainJob pod and launches the local
// workers: trainjob-trainer-worker, installed beside it, or with a SCRIPT on the command
// line, Python running it, as torchrun would. Under torchrun, which has already launched
// us as a worker, it becomes the worker.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

#include "launch/launcher.h"
#include "launch/worker_env.h"
#include "settings/devices.h"
#include "settings/options.h"

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

/// A port on loopback nobody listens on now, for --standalone (29500 if none is found).
int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  if (fd >= 0) close(fd);
  return ok ? ntohs(address.sin_port) : 29500;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  ParsedOptions parsed = parse_options(args);
  if (parsed.help) {
    std::fputs(help_text().c_str(), stdout);
    return 0;
  }
  if (!parsed.error.empty()) return fail(parsed.error, parsed.exit_code);
  const Options& options = parsed.options;
  std::vector<std::string> command = script_command(options);

  if (command.empty()) {
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
    command.push_back(worker);
    command.insert(command.end(), args.begin(), args.end());
  }

  LaunchPlan plan;
  std::string error;
  NodeFacts node{visible_gpu_count(), usable_cpu_count(), free_port};
  if (!plan_launch(options, node, &plan, &error)) return fail(error, 1);
  // As torchrun: NCCL reports a peer's failure as an error instead of hanging (unless set).
  setenv("NCCL_ASYNC_ERROR_HANDLING", "1", 0);
  return run_launcher(plan, command.front(),
                      std::vector<std::string>(command.begin() + 1, command.end()));
}
