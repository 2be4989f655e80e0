// Child processes the way both binaries start them: the plugin (`run --local` containers,
// exec credential plugins) and the trainer's launcher (its workers). One place decides how a
// child gets its own process group, its environment and directory, how a group is stopped
// and how an exit status reads. Needs nothing beyond libc, so the trainer, which links none
// of lib/, compiles this pair into its own core library.
#ifndef TRAINJOB_UTIL_PROCESS_H_
#define TRAINJOB_UTIL_PROCESS_H_

#include <chrono>
#include <csignal>
#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace trainjob {

/// For SpawnRequest's descriptors: the child keeps ours, or reads/writes /dev/null.
constexpr int kInheritFd = -1;
constexpr int kDevNullFd = -2;

struct SpawnRequest {
  std::vector<std::string> argv;  ///< argv[0] is the program
  bool search_path = true;        ///< argv[0] looked up on PATH unless it has a slash
  /// Set on top of our environment in this order, so a later entry wins over an earlier one
  /// and over ours.
  std::vector<std::pair<std::string, std::string>> env;
  std::string working_dir;  ///< "": ours
  /// Leads a process group of its own (its id is the child's pid), so that stopping it
  /// reaches whatever it started. Not for a child that reads our terminal: a background
  /// group that does is stopped by SIGTTIN.
  bool own_group = true;
  /// SIGKILL when we die, even by SIGKILL ourselves, so that no child outlives us.
  bool die_with_parent = false;
  int stdin_fd = kInheritFd;
  int stdout_fd = kInheritFd;
  int stderr_fd = kInheritFd;
  /// The child's signal mask; null: the caller's at the time of the call. Signals we
  /// handle are reset to their default action in the child either way.
  const sigset_t* signal_mask = nullptr;
  /// What the child's own message starts with when it cannot run the program
  /// ("kubectl-trainjob: "), printed on its stderr before it exits 127, as a shell does.
  std::string error_prefix;
  /// Instead: spawn_process fails (having reaped the child) when the program cannot be run,
  /// for callers that tell a missing command apart from one that failed.
  bool fail_if_not_run = false;
};

/// Forks and execs `request`; the child's pid, or -1 with `*error` set when there is none.
pid_t spawn_process(const SpawnRequest& request, std::string* error);

/// Sends `signal_number` to `pid`'s process group when it leads one, else to it alone.
void signal_process(pid_t pid, bool own_group, int signal_number);

/// Waits for `pid` to end, retrying when a signal interrupts the wait; its wait status.
int wait_for_exit(pid_t pid);

using SteadyTime = std::chrono::steady_clock::time_point;

/// Stops process groups the way a container runtime stops a pod: SIGTERM to each at once,
/// SIGKILL to those still running `grace_seconds` later. `wait_until(time)` is the caller's
/// loop: it waits for events at most until `time` (reaping what ended, reading output) and
/// returns the group leaders still running; stop_groups returns once it returns none.
void stop_groups(const std::vector<pid_t>& groups, double grace_seconds,
                 const std::function<std::vector<pid_t>(SteadyTime)>& wait_until);

/// How a wait status reads in a message: "exit status 3", "signal 9 (Killed)".
std::string describe_status(int status);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_PROCESS_H_
