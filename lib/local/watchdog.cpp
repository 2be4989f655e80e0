#include "local/watchdog.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <set>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "local/process_reaper.h"
#include "util/beneath.h"

namespace trainjob {
namespace {

/// What the plugin tells the watchdog, as it goes.
struct WatchdogState {
  std::set<pid_t> groups;
  bool keep = false;
  bool done = false;
};

bool send_all(int socket, const std::string& text) {
  size_t sent = 0;
  while (sent < text.size()) {
    ssize_t n = ::send(socket, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

void apply_line(const std::string& line, WatchdogState* state) {
  auto number = [&](size_t from) {
    return static_cast<pid_t>(std::strtol(line.c_str() + from, nullptr, 10));
  };
  if (line.rfind("group ", 0) == 0) {
    pid_t group = number(6);
    if (group > 1) state->groups.insert(group);
  } else if (line.rfind("ended ", 0) == 0) {
    state->groups.erase(number(6));
  } else if (line == "keep") {
    state->keep = true;
  } else if (line == "done") {
    state->done = true;
  }
}

/// Reads the plugin's lines until end of file: the plugin has exited or died.
void follow_plugin(int socket, WatchdogState* state) {
  std::string pending;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(socket, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    pending.append(buffer, static_cast<size_t>(n));
    for (size_t newline; (newline = pending.find('\n')) != std::string::npos;) {
      apply_line(pending.substr(0, newline), state);
      pending.erase(0, newline + 1);
    }
  }
}

/// Closes every descriptor from `first` up: close_range(2) where the kernel has it (5.9 and
/// later), else each one /proc/self/fd lists. Through syscall() with the kernel headers'
/// number: glibc has a close_range() only from 2.34, above the release build's baseline
/// (docs/install.md), and glibc 2.31 names no SYS_close_range.
void close_from(int first) {
  if (::syscall(__NR_close_range, first, ~0U, 0) == 0) return;
  std::vector<int> open;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
    const int fd = std::atoi(entry.path().filename().c_str());
    if (fd >= first) open.push_back(fd);  // the iterator's own descriptor too, harmlessly
  }
  for (int fd : open)
    ::close(fd);
}

/// The plugin died: end what it started, then remove what it created.
void clean_up_after_plugin(const WatchdogState& state, const std::string& marker,
                           const std::string& work_dir) {
  for (pid_t group : state.groups)
    ::kill(-group, SIGKILL);
  kill_until_gone([&] { return processes_with_env(marker, true); },
                  [&](pid_t pid) { return has_env_entry(pid, marker, true); }, [] {});
  if (!state.keep) remove_tree(work_dir);
}

/// The watchdog process. It is a fork of a single-threaded plugin (parallel_for joins its
/// workers), so it may allocate; it leaves with _exit, running none of the plugin's
/// exit handlers.
[[noreturn]] void watchdog_main(int socket, const std::string& parent, const std::string& marker) {
  // Its own process group: Ctrl-C and a kill of the plugin's group do not reach it.
  ::setpgid(0, 0);
  for (int number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTTIN, SIGTTOU, SIGTSTP})
    ::signal(number, SIG_IGN);
  // Nothing of the plugin's but the socket: a pipe the plugin's caller reads must see
  // its end when the plugin dies, not when the watchdog does.
  ::dup2(socket, 3);
  close_from(4);
  std::string dir = (std::filesystem::path(parent) / "trainjob-local-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) {
    send_all(3, "error " + std::string(std::strerror(errno)) + "\n");
    ::_exit(1);
  }
  if (!send_all(3, "dir " + dir + "\n")) {
    remove_tree(dir);
    ::_exit(1);
  }
  int null = ::open("/dev/null", O_RDWR);
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO})
    ::dup2(null, fd);
  WatchdogState state;
  follow_plugin(3, &state);
  if (!state.done) clean_up_after_plugin(state, marker, dir);
  ::_exit(0);
}

/// The watchdog's first line: "dir PATH" or "error WHY".
std::string read_reply(int socket) {
  std::string line;
  char c = 0;
  for (ssize_t n; (n = ::read(socket, &c, 1)) != 0 && c != '\n';) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    line += c;
  }
  return line;
}

}  // namespace

Watchdog::~Watchdog() {
  finish();
}

bool Watchdog::start(const std::string& parent, const std::string& marker, std::string* error) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    *error = "cannot start the watchdog: " + std::string(std::strerror(errno));
    return false;
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    watchdog_main(fds[1], parent, marker);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    *error = "cannot start the watchdog: " + std::string(std::strerror(errno));
    return false;
  }
  pid_ = pid;
  socket_ = fds[0];
  std::string reply = read_reply(socket_);
  if (reply.rfind("dir ", 0) == 0) {
    work_dir_ = reply.substr(4);
    return true;
  }
  *error = "cannot create a work directory in " + parent + ": " +
           (reply.rfind("error ", 0) == 0 ? reply.substr(6) : "the watchdog ended");
  finish();
  return false;
}

void Watchdog::send(const std::string& line) {
  // A watchdog that is gone cannot be helped; the run goes on without it.
  if (socket_ >= 0) send_all(socket_, line);
}

void Watchdog::started(pid_t group) {
  send("group " + std::to_string(group) + "\n");
}

void Watchdog::ended(pid_t group) {
  send("ended " + std::to_string(group) + "\n");
}

void Watchdog::keep_work_dir() {
  send("keep\n");
}

void Watchdog::finish() {
  if (socket_ < 0) return;
  send("done\n");
  ::close(socket_);
  socket_ = -1;
  while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

}  // namespace trainjob
