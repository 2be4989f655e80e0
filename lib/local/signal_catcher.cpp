#include "local/signal_catcher.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <unistd.h>
#include <utility>
#include <vector>

#include "util/process.h"

namespace trainjob {
namespace {

constexpr int kCaughtSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

/// Signals reach the poll loop through this pipe.
int g_signal_pipe[2] = {-1, -1};
struct sigaction g_saved[std::size(kCaughtSignals)]{};

void on_signal(int signal_number) {
  int saved = errno;
  auto byte = static_cast<char>(signal_number);
  [[maybe_unused]] ssize_t ignored = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

/// The container's environment on top of ours (so PATH, HOME and a virtualenv work), the
/// marker after it, so a pod cannot unset it by defining it, and the PATH prefix last, before
/// the container's own PATH if it sets one.
std::vector<std::pair<std::string, std::string>> container_environment(
    const LocalContainer& container, const std::string& marker) {
  std::vector<std::pair<std::string, std::string>> env = container.env;
  size_t equals = marker.find('=');
  env.emplace_back(marker.substr(0, equals),
                   equals == std::string::npos ? "" : marker.substr(equals + 1));
  if (!container.path_prefix.empty()) {
    const char* host_path = std::getenv("PATH");
    std::optional<std::string> path;
    if (host_path != nullptr) path = host_path;
    for (const auto& [name, value] : container.env) {
      if (name == "PATH") path = value;
    }
    env.emplace_back("PATH", container.path_prefix + (path ? ":" + *path : ""));
  }
  return env;
}

}  // namespace

SignalCatcher::SignalCatcher() {
  if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (size_t i = 0; i < std::size(kCaughtSignals); ++i)
    ::sigaction(kCaughtSignals[i], &action, &g_saved[i]);
}

SignalCatcher::~SignalCatcher() {
  for (size_t i = 0; i < std::size(kCaughtSignals); ++i)
    ::sigaction(kCaughtSignals[i], &g_saved[i], nullptr);
  ::close(g_signal_pipe[0]);
  ::close(g_signal_pipe[1]);
  g_signal_pipe[0] = g_signal_pipe[1] = -1;
}

int SignalCatcher::read_fd() {
  return g_signal_pipe[0];
}

bool SignalCatcher::stop_requested() {
  char bytes[64];
  bool stop = false;
  for (ssize_t n; (n = ::read(g_signal_pipe[0], bytes, sizeof bytes)) > 0;) {
    for (ssize_t i = 0; i < n; ++i)
      stop = stop || bytes[i] != SIGCHLD;
  }
  return stop;
}

pid_t start_container(const LocalContainer& container, const std::string& marker, int* output,
                      std::string* error) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    *error = "cannot create a pipe: " + std::string(std::strerror(errno));
    return -1;
  }
  SpawnRequest request;
  request.argv = container.argv;
  request.env = container_environment(container, marker);
  request.working_dir = container.working_dir;
  request.die_with_parent = true;
  request.stdin_fd = kDevNullFd;
  request.stdout_fd = fds[1];
  request.stderr_fd = fds[1];
  request.error_prefix = "kubectl-trainjob: ";
  pid_t pid = spawn_process(request, error);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return -1;
  }
  ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  *output = fds[0];
  return pid;
}

}  // namespace trainjob
