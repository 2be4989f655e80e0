// Times whole processes for tests/bench/startup.sh: runs each command line given (separated
// by "--") in turn, round after round, so that every command sees the same machine load,
// and prints the median wall time of each. posix_spawn from a compiled program adds far
// less than a shell loop would to a process of a few milliseconds.
//
// Usage: startup_timer ROUNDS CMD1... [-- CMD2...]...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char** environ;

namespace {

/// Runs one command with stdout and stderr on /dev/null; the wall time in ms, or -1.
double run_once(const std::vector<char*>& argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  auto end = std::chrono::steady_clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return std::chrono::duration<double, std::milli>(end - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: startup_timer ROUNDS CMD... [-- CMD...]...\n");
    return 2;
  }
  int rounds = std::atoi(argv[1]);
  std::vector<std::vector<char*>> commands(1);
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) {
      commands.emplace_back();
    } else {
      commands.back().push_back(argv[i]);
    }
  }
  for (auto& command : commands)
    command.push_back(nullptr);
  std::vector<std::vector<double>> times(commands.size());
  for (int round = -3; round < rounds; ++round) {  // three rounds to warm the page cache
    for (size_t c = 0; c < commands.size(); ++c) {
      double ms = run_once(commands[c]);
      if (ms < 0) {
        std::fprintf(stderr, "startup_timer: %s failed\n", commands[c][0]);
        return 1;
      }
      if (round >= 0) times[c].push_back(ms);
    }
  }
  for (size_t c = 0; c < commands.size(); ++c) {
    std::sort(times[c].begin(), times[c].end());
    std::printf("%.2f\n", times[c][times[c].size() / 2]);
  }
  return 0;
}
