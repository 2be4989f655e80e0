// Finding and ending the processes a local run started, wherever they went: a pod's
// processes leave its process group with setsid or setpgid, and leave the plugin's tree
// when the plugin dies. Read from /proc (Linux); nothing here needs privileges, and only
// processes of the same user can be read or signalled.
#ifndef TRAINJOB_LOCAL_PROCESS_REAPER_H_
#define TRAINJOB_LOCAL_PROCESS_REAPER_H_

#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace trainjob {

/// Living processes whose chain of parents leads to `root` (not `root` itself, no
/// zombies), found by one pass over /proc.
std::vector<pid_t> descendants_of(pid_t root);

/// Whether `root` is among `pid`'s parents, read now.
bool is_descendant(pid_t pid, pid_t root);

/// Whether `pid`'s environment holds `entry` ("NAME=value") exactly, or, when
/// `as_prefix`, an entry that starts with it.
bool has_env_entry(pid_t pid, const std::string& entry, bool as_prefix);

/// Every process of this user whose environment holds `entry` (see has_env_entry).
std::vector<pid_t> processes_with_env(const std::string& entry, bool as_prefix);

/// Sends SIGKILL to `pid` if `still_ours(pid)` holds once the process is pinned with a
/// pidfd, so a pid that was reused since it was found is never signalled.
void kill_if(pid_t pid, const std::function<bool(pid_t)>& still_ours);

/// SIGKILLs what `find` returns, round after round, until it finds nothing: a process
/// that forks while it is killed leaves a child the next round finds. `between_rounds`
/// (reaping, say) runs after each round. False when processes remained after the last.
bool kill_until_gone(const std::function<std::vector<pid_t>()>& find,
                     const std::function<bool(pid_t)>& still_ours,
                     const std::function<void()>& between_rounds);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PROCESS_REAPER_H_
