#include "local/local_runner.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace trainjob {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kCaughtSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

sigset_t caught_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int number : kCaughtSignals)
    sigaddset(&set, number);
  return set;
}

/// Signals reach the poll loop through this pipe (the self-pipe trick).
int g_signal_pipe[2] = {-1, -1};

void on_signal(int signal_number) {
  int saved = errno;
  auto byte = static_cast<char>(signal_number);
  [[maybe_unused]] ssize_t ignored = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

class SignalCatcher {
 public:
  SignalCatcher() {
    if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int number : kCaughtSignals)
      ::sigaction(number, &action, &saved_[index(number)]);
  }
  ~SignalCatcher() {
    for (int number : kCaughtSignals)
      ::sigaction(number, &saved_[index(number)], nullptr);
    ::close(g_signal_pipe[0]);
    ::close(g_signal_pipe[1]);
  }
  SignalCatcher(const SignalCatcher&) = delete;
  SignalCatcher& operator=(const SignalCatcher&) = delete;

  /// Drains the pipe; true when a stop signal (not SIGCHLD) arrived.
  static bool stop_requested() {
    char bytes[64];
    bool stop = false;
    for (ssize_t n; (n = ::read(g_signal_pipe[0], bytes, sizeof bytes)) > 0;) {
      for (ssize_t i = 0; i < n; ++i)
        stop = stop || bytes[i] != SIGCHLD;
    }
    return stop;
  }

 private:
  static size_t index(int number) {
    return number == SIGINT ? 0 : number == SIGTERM ? 1 : number == SIGHUP ? 2 : 3;
  }
  struct sigaction saved_[4]{};
};

/// One running container.
struct Process {
  size_t pod = 0;
  bool init = false;
  size_t container = 0;  ///< index in the pod's init_containers or containers
  pid_t pid = -1;
  int output = -1;  ///< read end of its stdout+stderr
  std::string partial;
  bool exited = false;
  int status = 0;
};

[[noreturn]] void exec_container(const LocalContainer& container, int output) {
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
  // then get their own variables on top.
  for (const auto& [name, value] : container.env)
    ::setenv(name.c_str(), value.c_str(), 1);
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

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return "status " + std::to_string(status);
}

class StageRunner {
 public:
  StageRunner(const std::vector<LocalPod>& pods, const RunSettings& settings,
              Clock::time_point deadline)
      : pods_(pods), settings_(settings), deadline_(deadline) {}

  bool run(std::string* failure) {
    for (size_t pod = 0; pod < pods_.size(); ++pod)
      start_pod(pod);
    while (running_count() > 0) {
      if (!failure_.empty()) break;
      wait_for_events();
    }
    if (!failure_.empty()) stop_all();
    *failure = failure_;
    return failure_.empty();
  }

 private:
  void start_pod(size_t pod) {
    const LocalPod& p = pods_[pod];
    if (!p.init_containers.empty()) {
      start(pod, true, 0);
      return;
    }
    start_main_containers(pod);
  }

  void start_main_containers(size_t pod) {
    for (size_t i = 0; i < pods_[pod].containers.size(); ++i)
      start(pod, false, i);
  }

  void start(size_t pod, bool init, size_t index) {
    const LocalPod& p = pods_[pod];
    const LocalContainer& container = init ? p.init_containers[index] : p.containers[index];
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      failure_ = "cannot create a pipe: " + std::string(std::strerror(errno));
      return;
    }
    std::fflush(settings_.out);
    sigset_t caught = caught_signal_set();
    sigset_t previous;
    ::sigprocmask(SIG_BLOCK, &caught, &previous);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      exec_container(container, fds[1]);
    }
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    ::close(fds[1]);
    if (pid < 0) {
      ::close(fds[0]);
      failure_ = "cannot start a process: " + std::string(std::strerror(errno));
      return;
    }
    ::setpgid(pid, pid);  // also here, so a signal sent at once reaches the group
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    processes_.push_back({pod, init, index, pid, fds[0], "", false, 0});
  }

  size_t running_count() const {
    size_t count = 0;
    for (const Process& process : processes_)
      count += process.exited && process.output < 0 ? 0 : 1;
    return count;
  }

  void wait_for_events() {
    std::vector<pollfd> fds{{g_signal_pipe[0], POLLIN, 0}};
    std::vector<size_t> owners{SIZE_MAX};
    for (size_t i = 0; i < processes_.size(); ++i) {
      if (processes_[i].output < 0) continue;
      fds.push_back({processes_[i].output, POLLIN, 0});
      owners.push_back(i);
    }
    int timeout_ms = -1;
    if (deadline_ != Clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
      timeout_ms = static_cast<int>(std::max<int64_t>(0, left.count()));
    }
    int ready = ::poll(fds.data(), fds.size(), timeout_ms);
    if (ready < 0 && errno != EINTR) failure_ = "poll: " + std::string(std::strerror(errno));
    for (size_t i = 1; i < fds.size(); ++i) {
      if (fds[i].revents != 0) read_output(&processes_[owners[i]]);
    }
    if (SignalCatcher::stop_requested()) failure_ = "interrupted: stopped every pod";
    reap();
    if (failure_.empty() && Clock::now() >= deadline_) {
      failure_ = "timed out: stopped every pod";
    }
  }

  void read_output(Process* process) {
    char buffer[65536];
    for (;;) {
      ssize_t n = ::read(process->output, buffer, sizeof buffer);
      if (n > 0) {
        process->partial.append(buffer, static_cast<size_t>(n));
        print_lines(process, false);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
      print_lines(process, true);  // end of output
      ::close(process->output);
      process->output = -1;
      return;
    }
  }

  /// Prints the whole lines gathered so far (and at the end, what is left), so lines of
  /// different pods never mix.
  void print_lines(Process* process, bool at_end) {
    std::string& text = process->partial;
    size_t end = at_end ? text.size() : text.rfind('\n') + 1;
    if (end == 0 || text.empty()) return;
    std::string prefix = line_prefix(*process);
    std::string block;
    size_t start = 0;
    while (start < end) {
      size_t newline = text.find('\n', start);
      size_t stop = newline == std::string::npos || newline >= end ? end : newline + 1;
      block += prefix;
      block.append(text, start, stop - start);
      if (block.back() != '\n') block += '\n';
      start = stop;
    }
    text.erase(0, end);
    std::fwrite(block.data(), 1, block.size(), settings_.out);
    std::fflush(settings_.out);
  }

  std::string line_prefix(const Process& process) const {
    if (!settings_.prefix) return {};
    const LocalPod& pod = pods_[process.pod];
    const auto& list = process.init ? pod.init_containers : pod.containers;
    bool several = pod.containers.size() + pod.init_containers.size() > 1;
    return "[" + pod.label + (several ? "/" + list[process.container].name : "") + "] ";
  }

  void reap() {
    // By index, and with a copy: on_exit starts containers, which grows processes_.
    for (size_t i = 0; i < processes_.size(); ++i) {
      Process& process = processes_[i];
      if (process.exited) continue;
      pid_t done = ::waitpid(process.pid, &process.status, WNOHANG);
      if (done != process.pid) continue;
      process.exited = true;
      // Like a container, the process group ends with its main process.
      ::kill(-process.pid, SIGKILL);
      on_exit(Process(process));
    }
  }

  void on_exit(const Process& process) {
    const LocalPod& pod = pods_[process.pod];
    const auto& list = process.init ? pod.init_containers : pod.containers;
    if (!failure_.empty()) return;
    if (!WIFEXITED(process.status) || WEXITSTATUS(process.status) != 0) {
      failure_ = "pod " + pod.name + " (" + pod.label + "), " +
                 (process.init ? "init container " : "container ") + list[process.container].name +
                 ", failed with " + describe_status(process.status);
      return;
    }
    if (process.init) {
      if (process.container + 1 < pod.init_containers.size()) {
        start(process.pod, true, process.container + 1);
      } else {
        start_main_containers(process.pod);
      }
    }
  }

  /// SIGTERM to every process group still running, SIGKILL after the grace period.
  void stop_all() {
    for (const Process& process : processes_) {
      if (!process.exited) ::kill(-process.pid, SIGTERM);
    }
    auto kill_at = Clock::now() +
                   std::chrono::milliseconds(static_cast<int64_t>(settings_.grace_seconds * 1000));
    while (running_count() > 0) {
      if (Clock::now() >= kill_at) {
        for (const Process& process : processes_) {
          if (!process.exited) ::kill(-process.pid, SIGKILL);
        }
      }
      std::string ignored = failure_;
      deadline_ = std::min(kill_at, Clock::now() + std::chrono::milliseconds(100));
      wait_for_events();
      failure_ = ignored;
    }
  }

  const std::vector<LocalPod>& pods_;
  const RunSettings& settings_;
  Clock::time_point deadline_;
  std::vector<Process> processes_;
  std::string failure_;
};

}  // namespace

bool run_local_plan(const LocalPlan& plan, const RunSettings& settings, std::string* failure) {
  SignalCatcher signals;
  Clock::time_point deadline =
      settings.timeout_seconds > 0
          ? Clock::now() +
                std::chrono::milliseconds(static_cast<int64_t>(settings.timeout_seconds * 1000))
          : Clock::time_point::max();
  for (const std::vector<LocalPod>& stage : plan.stages) {
    StageRunner runner(stage, settings, deadline);
    if (!runner.run(failure)) return false;
  }
  return true;
}

}  // namespace trainjob
