#include "util/process.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>  // environ (with _GNU_SOURCE, as g++ defines it)

namespace trainjob {
namespace {

/// Our environment with `overrides` applied, as "NAME=value" strings: built before the fork,
/// since the child of a threaded process may not allocate (another thread may hold the heap's
/// lock at the fork).
std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry)
    entries.emplace_back(*entry);
  for (const auto& [name, value] : overrides) {
    std::string prefix = name + "=";
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const std::string& e) { return e.rfind(prefix, 0) == 0; }),
                  entries.end());
    entries.push_back(prefix + value);
  }
  return entries;
}

/// argv or envp for exec: pointers into `strings`, which must outlive them.
std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& text : strings)
    out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

/// Writes `parts` to stderr as one write(2), safe between fork and exec, so that the line
/// reaches a pipe whole.
void say(std::initializer_list<const char*> parts) {
  char line[1024];
  size_t length = 0;
  for (const char* part : parts) {
    size_t size = std::min(std::strlen(part), sizeof line - length);
    std::memcpy(line + length, part, size);
    length += size;
  }
  [[maybe_unused]] ssize_t ignored = ::write(STDERR_FILENO, line, length);
}

/// Makes `fd` (kInheritFd, kDevNullFd or a descriptor) the child's `target`.
void place_descriptor(int fd, int target, int open_flags) {
  if (fd == kInheritFd) return;
  if (fd == kDevNullFd) fd = ::open("/dev/null", open_flags);
  if (fd != target) ::dup2(fd, target);
}

struct ChildPlan {
  const SpawnRequest* request;
  char** argv;
  char** envp;
  const sigset_t* signal_mask;
  pid_t parent;
  int report_fd;  ///< the exec-failure pipe's write end (close-on-exec)
};

[[noreturn]] void fail_in_child(const ChildPlan& plan, const char* what, const char* name) {
  int error = errno;
  [[maybe_unused]] ssize_t ignored = ::write(plan.report_fd, &error, sizeof error);
  if (!plan.request->fail_if_not_run) {
    say({plan.request->error_prefix.c_str(), what, name, ": ", std::strerror(error), "\n"});
  }
  ::_exit(127);
}

[[noreturn]] void run_child(const ChildPlan& plan) {
  const SpawnRequest& request = *plan.request;
  // A handler of ours would run our code in the child for a signal sent before exec; with
  // every signal blocked across the fork, it is delivered here with its default action.
  for (int number = 1; number < NSIG; ++number) {
    struct sigaction action {};
    if (::sigaction(number, nullptr, &action) == 0 && action.sa_handler != SIG_DFL &&
        action.sa_handler != SIG_IGN) {
      ::signal(number, SIG_DFL);
    }
  }
  ::sigprocmask(SIG_SETMASK, plan.signal_mask, nullptr);
  if (request.own_group) ::setpgid(0, 0);
  if (request.die_with_parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != plan.parent) ::_exit(127);  // the parent died before prctl
  }
  place_descriptor(request.stdin_fd, STDIN_FILENO, O_RDONLY);
  place_descriptor(request.stdout_fd, STDOUT_FILENO, O_WRONLY);
  place_descriptor(request.stderr_fd, STDERR_FILENO, O_WRONLY);
  if (!request.working_dir.empty() && ::chdir(request.working_dir.c_str()) != 0)
    fail_in_child(plan, "cannot enter the working directory ", request.working_dir.c_str());
  // execvp looks the program up on the PATH of `environ`, which is the child's own now.
  environ = plan.envp;
  if (request.search_path) {
    ::execvp(plan.argv[0], plan.argv);
  } else {
    ::execv(plan.argv[0], plan.argv);
  }
  fail_in_child(plan, "cannot run ", plan.argv[0]);
}

/// The child's errno when it could not run the program; 0 once it did (the pipe closed on
/// exec).
int read_exec_error(int fd) {
  int error = 0;
  ssize_t n;
  while ((n = ::read(fd, &error, sizeof error)) < 0 && errno == EINTR) {
  }
  return n == sizeof error ? error : 0;
}

}  // namespace

pid_t spawn_process(const SpawnRequest& request, std::string* error) {
  if (request.argv.empty()) {
    *error = "cannot start a process: no program given";
    return -1;
  }
  std::vector<std::string> arg_strings = request.argv;
  std::vector<std::string> env_strings = child_environment(request.env);
  std::vector<char*> argv = pointers_to(arg_strings);
  std::vector<char*> envp = pointers_to(env_strings);
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    *error = "cannot create a pipe: " + std::string(std::strerror(errno));
    return -1;
  }
  std::fflush(nullptr);  // what we buffered must not be written twice
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  ChildPlan plan{&request,    argv.data(),
                 envp.data(), request.signal_mask != nullptr ? request.signal_mask : &previous,
                 ::getpid(),  report[1]};
  pid_t pid = ::fork();
  if (pid == 0) run_child(plan);
  int fork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ::close(report[1]);
  if (pid < 0) {
    ::close(report[0]);
    *error = "cannot start a process: " + std::string(std::strerror(fork_error));
    return -1;
  }
  // Also here, so that a signal sent to the group at once reaches it.
  if (request.own_group) ::setpgid(pid, pid);
  int exec_error = read_exec_error(report[0]);
  ::close(report[0]);
  if (exec_error != 0 && request.fail_if_not_run) {
    wait_for_exit(pid);
    *error = "cannot run " + request.argv[0] + ": " + std::strerror(exec_error);
    return -1;
  }
  return pid;
}

void signal_process(pid_t pid, bool own_group, int signal_number) {
  if (pid > 0) ::kill(own_group ? -pid : pid, signal_number);
}

int wait_for_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

void stop_groups(const std::vector<pid_t>& groups, double grace_seconds,
                 const std::function<std::vector<pid_t>(SteadyTime)>& wait_until) {
  for (pid_t group : groups)
    signal_process(group, true, SIGTERM);
  const SteadyTime kill_at = std::chrono::steady_clock::now() +
                             std::chrono::milliseconds(static_cast<int64_t>(grace_seconds * 1000));
  // Short waits, so that a group that ignores SIGTERM is killed close to kill_at.
  constexpr std::chrono::milliseconds kTick(100);
  std::vector<pid_t> running = groups;
  while (!running.empty()) {
    const SteadyTime now = std::chrono::steady_clock::now();
    if (now >= kill_at) {
      for (pid_t group : running)
        signal_process(group, true, SIGKILL);
    }
    running = wait_until(now >= kill_at ? now + kTick : std::min(kill_at, now + kTick));
  }
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return "signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) +
           ")";
  }
  return "status " + std::to_string(status);
}

}  // namespace trainjob
