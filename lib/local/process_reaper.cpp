#include "local/process_reaper.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <sys/syscall.h>
#include <unistd.h>

namespace trainjob {
namespace {

/// Rounds of kill_until_gone, 10 ms apart: a fork bomb outruns them, anything else not.
constexpr int kKillRounds = 200;

/// The whole of a small /proc file ("" when it cannot be read: gone, or not ours).
std::string read_proc_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

/// Every numeric entry of /proc.
std::vector<pid_t> all_pids() {
  std::vector<pid_t> pids;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return pids;
  while (dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid > 0 && *end == '\0') pids.push_back(static_cast<pid_t>(pid));
  }
  ::closedir(proc);
  return pids;
}

/// The parent of a living process; 0 for a zombie or one that is gone. The command name
/// in `stat` may hold spaces and parentheses, so the fields are read after the last ')'.
pid_t living_parent(pid_t pid) {
  std::string stat = read_proc_file("/proc/" + std::to_string(pid) + "/stat");
  size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 4 >= stat.size()) return 0;
  char state = stat[paren + 2];
  if (state == 'Z' || state == 'X') return 0;
  return static_cast<pid_t>(std::strtol(stat.c_str() + paren + 4, nullptr, 10));
}

}  // namespace

std::vector<pid_t> descendants_of(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  for (pid_t pid : all_pids()) {
    pid_t parent = living_parent(pid);
    if (parent > 0) children.emplace(parent, pid);
  }
  std::vector<pid_t> found;
  std::vector<pid_t> frontier{root};
  while (!frontier.empty()) {
    pid_t parent = frontier.back();
    frontier.pop_back();
    auto [begin, end] = children.equal_range(parent);
    for (auto it = begin; it != end; ++it) {
      found.push_back(it->second);
      frontier.push_back(it->second);
    }
  }
  return found;
}

bool is_descendant(pid_t pid, pid_t root) {
  // Bounded: a parent chain cannot be longer than the pids there are, but /proc is read
  // while processes come and go.
  for (int depth = 0; depth < 4096 && pid > 1; ++depth) {
    pid = living_parent(pid);
    if (pid == root) return true;
  }
  return false;
}

bool has_env_entry(pid_t pid, const std::string& entry, bool as_prefix) {
  std::string environ = read_proc_file("/proc/" + std::to_string(pid) + "/environ");
  for (size_t start = 0; start < environ.size();) {
    size_t end = environ.find('\0', start);
    if (end == std::string::npos) end = environ.size();
    size_t length = end - start;
    if ((as_prefix ? length >= entry.size() : length == entry.size()) &&
        environ.compare(start, entry.size(), entry) == 0) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

std::vector<pid_t> processes_with_env(const std::string& entry, bool as_prefix) {
  std::vector<pid_t> found;
  pid_t self = ::getpid();
  for (pid_t pid : all_pids()) {
    if (pid != self && living_parent(pid) > 0 && has_env_entry(pid, entry, as_prefix))
      found.push_back(pid);
  }
  return found;
}

void kill_if(pid_t pid, const std::function<bool(pid_t)>& still_ours) {
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    // No pidfds (a kernel before 5.3): a small window for pid reuse remains.
    if (errno == ENOSYS && still_ours(pid)) ::kill(pid, SIGKILL);
    return;
  }
  if (still_ours(pid)) ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
  ::close(pidfd);
}

bool kill_until_gone(const std::function<std::vector<pid_t>()>& find,
                     const std::function<bool(pid_t)>& still_ours,
                     const std::function<void()>& between_rounds) {
  for (int round = 0; round < kKillRounds; ++round) {
    std::vector<pid_t> pids = find();
    if (pids.empty()) return true;
    for (pid_t pid : pids)
      kill_if(pid, still_ours);
    between_rounds();
    ::usleep(round == 0 ? 1000 : 10000);
  }
  return find().empty();
}

}  // namespace trainjob
