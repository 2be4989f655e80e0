#include "sweep/trial_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/process.h"

namespace trainjob {
namespace {

/// Lines kept for a failed trial's message.
constexpr size_t kKeptLines = 8;
/// A line longer than this is cut: a trial's output is a program's, not ours.
constexpr size_t kMaxTrialLine = size_t{64} * 1024;

}  // namespace

bool TrialProcess::start(const std::vector<std::string>& argv, const std::string& log_path,
                         std::string* error) {
  if (!log_path.empty()) {
    log_ = std::fopen(log_path.c_str(), "we");
    if (log_ == nullptr) {
      *error = log_path + ": " + std::strerror(errno);
      return false;
    }
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  SpawnRequest request;
  request.argv = argv;
  request.search_path = false;
  request.stdin_fd = kDevNullFd;
  request.stdout_fd = pipe_fds[1];
  request.stderr_fd = pipe_fds[1];
  request.die_with_parent = true;
  pid_ = spawn_process(request, error);
  ::close(pipe_fds[1]);
  if (pid_ < 0) {
    ::close(pipe_fds[0]);
    return false;
  }
  output_ = pipe_fds[0];
  ::fcntl(output_, F_SETFL, ::fcntl(output_, F_GETFL) | O_NONBLOCK);
  return true;
}

TrialProcess::~TrialProcess() {
  if (pid_ > 0) {
    signal_process(pid_, true, SIGKILL);
    wait_for_exit(pid_);
  }
  if (output_ >= 0) ::close(output_);
  if (log_ != nullptr) std::fclose(log_);
}

void TrialProcess::take_line(std::string line, TrialResult* trial) {
  if (log_ != nullptr) {
    std::fwrite(line.data(), 1, line.size(), log_);
    std::fputc('\n', log_);
  }
  merge_progress_metrics(line, &trial->metrics, &trial->bad_progress);
  last_lines_.push_back(std::move(line));
  if (last_lines_.size() > kKeptLines) last_lines_.pop_front();
}

void TrialProcess::read_output(TrialResult* trial) {
  if (output_ < 0) return;
  char buffer[16384];
  for (;;) {
    ssize_t n = ::read(output_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;  // EAGAIN: all read for now
    if (n == 0) {
      if (!partial_.empty()) take_line(std::move(partial_), trial);
      partial_.clear();
      ::close(output_);
      output_ = -1;
      if (log_ != nullptr) std::fflush(log_);
      return;
    }
    partial_.append(buffer, static_cast<size_t>(n));
    size_t end;
    while ((end = partial_.find('\n')) != std::string::npos) {
      take_line(partial_.substr(0, end), trial);
      partial_.erase(0, end + 1);
    }
    if (partial_.size() > kMaxTrialLine) {
      take_line(partial_.substr(0, kMaxTrialLine), trial);
      partial_.clear();
    }
  }
}

bool TrialProcess::reap(int* status) {
  if (pid_ <= 0) return false;
  pid_t done = ::waitpid(pid_, status, WNOHANG);
  if (done != pid_) return false;
  pid_ = -1;
  return true;
}

void TrialProcess::signal(int signal_number) const {
  if (pid_ > 0) signal_process(pid_, true, signal_number);
}

}  // namespace trainjob
