// The watchdog of `run --local`: a small process forked before anything is created,
// which ends the pods and removes the work directory when the plugin dies without doing
// so itself (SIGKILL, a crash, the OOM killer). PR_SET_PDEATHSIG only reaches the
// plugin's own children and the subreaper role dies with the plugin, so something that
// outlives the plugin has to do it.
//
// How it knows: the plugin and the watchdog share a socket pair that only they hold
// (close-on-exec, so no pod inherits it). The watchdog creates the work directory itself
// and sends its path back, so there is no moment when the directory exists and nobody
// would remove it. The plugin then sends the process group of every container it starts
// and ends. End of file on the socket without a "done" line means the plugin died: the
// watchdog SIGKILLs every group still listed, then every process of this user whose
// environment carries the run's marker (what a pod started with setsid or a double fork),
// repeating until none is left, and removes the work directory (unless --keep-workdir).
//
// What it cannot do: a process that leaves its group and also clears or rewrites its
// environment (env -i, a daemon that resets it) before the plugin dies is not found; a
// process of another user (setuid) cannot be signalled; a fork bomb can outrun the kill
// rounds. Only a cgroup or a PID namespace would close these, and both need privileges
// the plugin does not ask for. The watchdog itself can be killed by someone who kills
// it by its pid or by its process group; it ignores SIGINT, SIGTERM, SIGHUP and SIGQUIT.
#ifndef TRAINJOB_LOCAL_WATCHDOG_H_
#define TRAINJOB_LOCAL_WATCHDOG_H_

#include <string>
#include <sys/types.h>

#include "local/plan_runner.h"

namespace trainjob {

class Watchdog : public ProcessGroups {
 public:
  Watchdog() = default;
  ~Watchdog() override;  ///< finish()
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  /// Forks the watchdog, which creates `<parent>/trainjob-local-XXXXXX` and reports it.
  /// `marker` is the environment entry prefix ("NAME=value") every container carries.
  bool start(const std::string& parent, const std::string& marker, std::string* error);
  const std::string& work_dir() const { return work_dir_; }
  pid_t pid() const { return pid_; }

  void started(pid_t group) override;
  void ended(pid_t group) override;
  /// The work directory outlives the plugin, even when the plugin dies.
  void keep_work_dir();
  /// The plugin has ended every pod and dealt with the work directory itself: the
  /// watchdog exits without doing anything. Waits for it.
  void finish();

 private:
  void send(const std::string& line);

  pid_t pid_ = -1;
  int socket_ = -1;
  std::string work_dir_;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_WATCHDOG_H_
