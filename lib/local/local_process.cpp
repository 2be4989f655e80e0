#include "local/local_process.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace trainjob {
namespace {

constexpr int kCaughtSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

sigset_t caught_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int number : kCaughtSignals)
    sigaddset(&set, number);
  return set;
}

/// Signals reach the poll loop through this pipe.
int g_signal_pipe[2] = {-1, -1};
struct sigaction g_saved[std::size(kCaughtSignals)]{};

void on_signal(int signal_number) {
  int saved = errno;
  auto byte = static_cast<char>(signal_number);
  [[maybe_unused]] ssize_t ignored = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

[[noreturn]] void exec_container(const LocalContainer& container, const std::string& marker,
                                 int output) {
  // The parent's handlers would swallow a SIGTERM sent before exec: a signal blocked
  // across the fork is delivered here, with its default action, once unblocked.
  for (int number : kCaughtSignals)
    ::signal(number, SIG_DFL);
  sigset_t caught = caught_signal_set();
  ::sigprocmask(SIG_UNBLOCK, &caught, nullptr);
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  int null = ::open("/dev/null", O_RDONLY);
  ::dup2(null, STDIN_FILENO);
  ::dup2(output, STDOUT_FILENO);
  ::dup2(output, STDERR_FILENO);
  // Containers start from the host environment (so PATH, HOME and a virtualenv work),
  // then get their own variables on top, and the marker last, so a pod cannot unset it
  // by defining it.
  for (const auto& [name, value] : container.env)
    ::setenv(name.c_str(), value.c_str(), 1);
  ::putenv(const_cast<char*>(marker.c_str()));
  if (!container.path_prefix.empty()) {
    const char* path = std::getenv("PATH");
    std::string joined = container.path_prefix + (path != nullptr ? ":" + std::string(path) : "");
    ::setenv("PATH", joined.c_str(), 1);
  }
  if (!container.working_dir.empty() && ::chdir(container.working_dir.c_str()) != 0) {
    std::fprintf(stderr, "kubectl-trainjob: cannot enter workingDir %s: %s\n",
                 container.working_dir.c_str(), std::strerror(errno));
    std::_Exit(127);
  }
  std::vector<char*> argv;
  for (const std::string& word : container.argv)
    argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  std::fprintf(stderr, "kubectl-trainjob: cannot run %s: %s\n", argv[0], std::strerror(errno));
  std::_Exit(127);
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
  std::fflush(nullptr);
  sigset_t caught = caught_signal_set();
  sigset_t previous;
  ::sigprocmask(SIG_BLOCK, &caught, &previous);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    exec_container(container, marker, fds[1]);
  }
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    *error = "cannot start a process: " + std::string(std::strerror(errno));
    return -1;
  }
  ::setpgid(pid, pid);  // also here, so a signal sent at once reaches the group
  ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
  *output = fds[0];
  return pid;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return "status " + std::to_string(status);
}

}  // namespace trainjob
