// The process side of `run --local`'s runner: the signals it turns into a stop request,
// and one container started as a process in its own process group. Internal to lib/local.
#ifndef TRAINJOB_LOCAL_SIGNAL_CATCHER_H_
#define TRAINJOB_LOCAL_SIGNAL_CATCHER_H_

#include <string>
#include <sys/types.h>

#include "local/plan/local_plan.h"

namespace trainjob {

/// Catches SIGINT, SIGTERM, SIGHUP and SIGCHLD while it lives and turns them into bytes
/// on a pipe (the self-pipe trick), so the runner's poll loop wakes for them.
class SignalCatcher {
 public:
  SignalCatcher();
  ~SignalCatcher();
  SignalCatcher(const SignalCatcher&) = delete;
  SignalCatcher& operator=(const SignalCatcher&) = delete;

  /// The pipe's read end, for poll.
  static int read_fd();
  /// Drains the pipe; true when a stop signal (not SIGCHLD) arrived.
  static bool stop_requested();
};

/// Starts `container` in a new process group (whose id is the returned pid),
/// stdin from /dev/null, stdout and stderr into a pipe whose read end goes to `*output`,
/// with `marker` ("NAME=value") added to its environment so that its descendants can be
/// found after they left the group. -1 with `*error` set when it cannot.
pid_t start_container(const LocalContainer& container, const std::string& marker, int* output,
                      std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_SIGNAL_CATCHER_H_
