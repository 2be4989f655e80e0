// RealEnvironment::run: a credential plugin as a child process, under a deadline and with
// its output capped, so that a plugin that hangs or floods cannot hang or exhaust us.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "kube/environment.h"

namespace trainjob {
namespace {

using SteadyClock = std::chrono::steady_clock;

/// argv or envp for posix_spawn: pointers into `strings`, which must outlive them.
std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& text : strings)
    out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

std::vector<std::string> environment_with(const ProcessRequest& request) {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry)
    out.emplace_back(*entry);
  for (const auto& [name, value] : request.extra_env) {
    std::string entry = name;
    entry.append("=").append(value);
    out.push_back(std::move(entry));
  }
  return out;
}

/// Milliseconds left before `deadline` for poll(); -1 (wait for ever) without one.
int poll_timeout(const std::optional<SteadyClock::time_point>& deadline) {
  if (!deadline) return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - SteadyClock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

void pass_on_stderr(const char* data, size_t size) {
  ssize_t ignored = write(STDERR_FILENO, data, size);
  (void)ignored;  // our stderr gone is no reason to fail the credential
}

/// Reads the child's stdout (kept) and stderr (copied to ours) until both close, the
/// deadline passes or either passes the limit; says which.
ProcessEnd pump(int out_fd, int err_fd, const ProcessRequest& request, std::string* out) {
  std::optional<SteadyClock::time_point> deadline;
  if (request.timeout_seconds > 0)
    deadline = SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                        std::chrono::duration<double>(request.timeout_seconds));
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  size_t err_seen = 0;  // stderr is passed on as it comes (prompts), only counted
  bool err_mid_line = false;
  char buffer[65536];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    int ready = poll(fds, 2, poll_timeout(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return ProcessEnd::kTimedOut;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;  // end of file (or an error, which ends it the same way)
        continue;
      }
      if (i == 0 && !append_within(out, buffer, n, request.output_limit))
        return ProcessEnd::kStdoutTooLarge;
      if (i == 1) {
        err_seen += static_cast<size_t>(n);
        if (request.output_limit != 0 && err_seen > request.output_limit) {
          // What follows (our error) starts a line of its own.
          if (err_mid_line) pass_on_stderr("\n", 1);
          return ProcessEnd::kStderrTooLarge;
        }
        pass_on_stderr(buffer, n);
        err_mid_line = buffer[n - 1] != '\n';
      }
    }
  }
  return ProcessEnd::kExited;
}

}  // namespace

bool append_within(std::string* into, const char* data, size_t size, size_t limit) {
  if (limit != 0 && (into->size() > limit || size > limit - into->size())) return false;
  into->append(data, size);
  return true;
}

ProcessResult RealEnvironment::run(const ProcessRequest& request) const {
  ProcessResult result;
  std::vector<std::string> env_strings = environment_with(request);
  std::vector<std::string> arg_strings{request.command};
  arg_strings.insert(arg_strings.end(), request.args.begin(), request.args.end());
  std::vector<char*> envp = pointers_to(env_strings);
  std::vector<char*> argv = pointers_to(arg_strings);

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return result;
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  if (!request.pass_stdin)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // A group of its own, so that killing it reaches what it started too. Not when it shares
  // our terminal: a background group that reads the terminal is stopped (SIGTTIN).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (!request.pass_stdin) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t pid = 0;
  int failed =
      posix_spawnp(&pid, request.command.c_str(), &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (failed == 0) result.end = pump(out_pipe[0], err_pipe[0], request, &result.out);
  close(out_pipe[0]);
  close(err_pipe[0]);
  if (failed != 0) return result;
  if (result.end != ProcessEnd::kExited) kill(request.pass_stdin ? pid : -pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // posix_spawnp may report a missing command as exit 127 of the child.
  result.started = !(WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.out.empty());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace trainjob
