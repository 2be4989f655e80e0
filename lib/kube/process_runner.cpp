// RealEnvironment::run: a credential plugin as a child process, under a deadline and with
// its output capped, so that a plugin that hangs or floods cannot hang or exhaust us.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "kube/environment.h"
#include "util/process.h"

namespace trainjob {
namespace {

using SteadyClock = std::chrono::steady_clock;

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
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return result;
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return result;
  }
  SpawnRequest spawn;
  spawn.argv.push_back(request.command);
  spawn.argv.insert(spawn.argv.end(), request.args.begin(), request.args.end());
  spawn.env = request.extra_env;
  // A group of its own, so that killing it reaches what it started too. Not when it shares
  // our terminal: a background group that reads the terminal is stopped (SIGTTIN).
  spawn.own_group = !request.pass_stdin;
  spawn.stdin_fd = request.pass_stdin ? kInheritFd : kDevNullFd;
  spawn.stdout_fd = out_pipe[1];
  spawn.stderr_fd = err_pipe[1];
  spawn.fail_if_not_run = true;  // a missing plugin is reported as not started
  std::string ignored;
  pid_t pid = spawn_process(spawn, &ignored);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid > 0) result.end = pump(out_pipe[0], err_pipe[0], request, &result.out);
  close(out_pipe[0]);
  close(err_pipe[0]);
  if (pid < 0) return result;
  if (result.end != ProcessEnd::kExited) signal_process(pid, spawn.own_group, SIGKILL);
  int status = wait_for_exit(pid);
  // A program that cannot run is caught above; a wrapper (env, a shell script) whose own
  // program is missing exits 127 with nothing on stdout, and is not found either.
  result.started = !(WIFEXITED(status) && WEXITSTATUS(status) == 127 && result.out.empty());
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace trainjob
