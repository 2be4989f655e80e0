// util/process: real children (sh), their group, environment, directory and ends.
#include "util/process.h"

#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

/// Runs `script` with sh, stdout into a pipe; what it printed and its wait status.
std::string run_sh(SpawnRequest request, const std::string& script, int* status) {
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  request.argv = {"sh", "-c", script};
  request.stdout_fd = fds[1];
  std::string error;
  pid_t pid = spawn_process(request, &error);
  ::close(fds[1]);
  REQUIRE_MESSAGE(pid > 0, error);
  std::string out;
  char buffer[256];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
    out.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  *status = wait_for_exit(pid);
  return out;
}

TEST_CASE("process: environment on top of ours, later entries win, directory") {
  ::setenv("TRAINJOB_PROCESS_TEST", "ours", 1);
  SpawnRequest request;
  request.env = {{"A", "1"}, {"A", "2"}, {"TRAINJOB_PROCESS_TEST", "theirs"}};
  request.working_dir = "/";
  int status = 0;
  std::string out = run_sh(request, "echo $A $TRAINJOB_PROCESS_TEST $(pwd)", &status);
  CHECK(out == "2 theirs /\n");
  CHECK(describe_status(status) == "exit status 0");
  ::unsetenv("TRAINJOB_PROCESS_TEST");
}

TEST_CASE("process: its own group, or ours") {
  SpawnRequest request;
  int status = 0;
  std::string own = run_sh(request, "ps -o pgid= -p $$; echo $$", &status);
  size_t newline = own.find('\n');
  REQUIRE(newline != std::string::npos);
  CHECK(std::stoi(own.substr(0, newline)) == std::stoi(own.substr(newline + 1)));
  request.own_group = false;
  std::string shared = run_sh(request, "ps -o pgid= -p $$", &status);
  CHECK(std::stoi(shared) == ::getpgrp());
}

TEST_CASE("process: describe_status") {
  int status = 0;
  run_sh(SpawnRequest{}, "exit 3", &status);
  CHECK(describe_status(status) == "exit status 3");
  run_sh(SpawnRequest{}, "kill -9 $$", &status);
  CHECK(describe_status(status) == "signal 9 (Killed)");
}

TEST_CASE("process: a program that cannot run") {
  SpawnRequest request;
  request.argv = {"/nonexistent/program"};
  request.fail_if_not_run = true;
  std::string error;
  CHECK(spawn_process(request, &error) == -1);
  CHECK(error == "cannot run /nonexistent/program: No such file or directory");

  // Otherwise the child says so and exits 127, as a shell does.
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  request.fail_if_not_run = false;
  request.error_prefix = "prog: ";
  request.stderr_fd = fds[1];
  pid_t pid = spawn_process(request, &error);
  ::close(fds[1]);
  REQUIRE(pid > 0);
  std::string said;
  char buffer[256];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
    said.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  CHECK(said == "prog: cannot run /nonexistent/program: No such file or directory\n");
  CHECK(describe_status(wait_for_exit(pid)) == "exit status 127");
}

TEST_CASE("process: stop_groups ends a group that ignores SIGTERM after the grace period") {
  SpawnRequest request;
  request.argv = {"sh", "-c", "trap '' TERM; sleep 30 & wait"};
  std::string error;
  pid_t pid = spawn_process(request, &error);
  REQUIRE(pid > 0);
  ::usleep(200'000);  // the trap is set
  int status = 0;
  auto started = std::chrono::steady_clock::now();
  stop_groups({pid}, 0.3, [&](SteadyTime until) {
    while (std::chrono::steady_clock::now() < until) {
      if (::waitpid(pid, &status, WNOHANG) == pid) return std::vector<pid_t>{};
      ::usleep(10'000);
    }
    return std::vector<pid_t>{pid};
  });
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(describe_status(status) == "signal 9 (Killed)");
  CHECK(seconds >= 0.3);
  CHECK(seconds < 5);
}

}  // namespace
}  // namespace trainjob
