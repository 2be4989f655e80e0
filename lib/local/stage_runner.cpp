#include "local/stage_runner.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <poll.h>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

#include "local/process_reaper.h"
#include "local/signal_catcher.h"

namespace trainjob {
namespace {

/// How bad an end is: a stopped pod says so whatever its exit status, a failure beats
/// success, and any end beats not having started.
int end_severity(const PodEnd& end) {
  if (end.how == PodEnd::How::kStopped) return 3;
  if (end.how == PodEnd::How::kSignaled || (end.how == PodEnd::How::kExited && end.code != 0))
    return 2;
  return end.how == PodEnd::How::kExited ? 1 : 0;
}

/// Folds one of a pod's containers into how the pod ended.
void worsen(PodEnd* end, const Process& process) {
  if (!process.exited && !process.stopped) return;
  PodEnd seen;
  bool clean_exit = WIFEXITED(process.status) && WEXITSTATUS(process.status) == 0;
  if (process.stopped && !(process.exited && clean_exit)) {
    seen.how = PodEnd::How::kStopped;
  } else if (WIFEXITED(process.status)) {
    seen.how = PodEnd::How::kExited;
    seen.code = WEXITSTATUS(process.status);
  } else {
    seen.how = PodEnd::How::kSignaled;
    seen.code = WTERMSIG(process.status);
  }
  if (end_severity(seen) > end_severity(*end)) {
    end->how = seen.how;
    end->code = seen.code;
  }
}

}  // namespace

bool StageRunner::run(std::string* failure) {
  for (size_t pod = 0; pod < pods_.size(); ++pod)
    start_pod(pod);
  while (running_count() > 0) {
    if (!failure_.empty() || (rule_met_ && policy_stops())) break;
    wait_for_events();
  }
  if (rule_ != nullptr && failure_.empty() && !rule_met_) {
    // Every pod ended (or could not start) without the rule deciding: it is not met.
    failure_ = first_failure_.empty()
                   ? "the " + rule_->kind + "'s success rule (" + rule_->describe() + ") is not met"
                   : first_failure_;
  }
  if (!failure_.empty()) {
    stop_all(stop_cause_.empty() ? "the failure" : stop_cause_);
  } else if (rule_met_ && policy_stops()) {
    stop_all(std::string("cleanPodPolicy ") + clean_pod_policy_name(rule_->clean_pod_policy));
  }
  *failure = failure_;
  return failure_.empty();
}

/// How each pod of the stage ended, for the summary.
std::vector<PodEnd> StageRunner::ends() const {
  std::vector<PodEnd> out;
  for (size_t pod = 0; pod < pods_.size(); ++pod) {
    PodEnd end;
    end.label = pods_[pod].label;
    for (const Process& process : processes_) {
      if (process.pod == pod) worsen(&end, process);
    }
    if (end.how == PodEnd::How::kStopped) end.stopped_by = stop_reason_;
    out.push_back(std::move(end));
  }
  return out;
}

void StageRunner::start_pod(size_t pod) {
  const LocalPod& p = pods_[pod];
  if (!p.init_containers.empty()) {
    start(pod, true, 0);
    return;
  }
  start_main_containers(pod);
}

void StageRunner::start_main_containers(size_t pod) {
  for (size_t i = 0; i < pods_[pod].containers.size(); ++i)
    start(pod, false, i);
}

void StageRunner::start(size_t pod, bool init, size_t index) {
  const LocalPod& p = pods_[pod];
  const LocalContainer& container = init ? p.init_containers[index] : p.containers[index];
  std::string marker = marker_prefix_ + std::to_string(next_marker_++);
  int output = -1;
  pid_t pid = start_container(container, marker, &output, &failure_);
  if (pid < 0) return;
  if (settings_.groups != nullptr) settings_.groups->started(pid);
  processes_.push_back({pod, init, index, pid, output, "", false, 0, std::move(marker)});
}

size_t StageRunner::running_count() const {
  size_t count = 0;
  for (const Process& process : processes_)
    count += process.exited && process.output < 0 ? 0 : 1;
  return count;
}

void StageRunner::wait_for_events() {
  std::vector<pollfd> fds{{SignalCatcher::read_fd(), POLLIN, 0}};
  std::vector<size_t> owners{SIZE_MAX};
  for (size_t i = 0; i < processes_.size(); ++i) {
    if (processes_[i].output < 0) continue;
    fds.push_back({processes_[i].output, POLLIN, 0});
    owners.push_back(i);
  }
  int timeout_ms = -1;
  if (deadline_ != std::chrono::steady_clock::time_point::max()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline_ - std::chrono::steady_clock::now());
    timeout_ms = static_cast<int>(std::max<int64_t>(0, left.count()));
  }
  int ready = ::poll(fds.data(), fds.size(), timeout_ms);
  if (ready < 0 && errno != EINTR) failure_ = "poll: " + std::string(std::strerror(errno));
  for (size_t i = 1; i < fds.size(); ++i) {
    if (fds[i].revents != 0) read_output(&processes_[owners[i]]);
  }
  if (SignalCatcher::stop_requested()) {
    failure_ = "interrupted: stopped every pod";
    stop_cause_ = "interrupt";
  }
  reap();
  if (failure_.empty() && std::chrono::steady_clock::now() >= deadline_) {
    failure_ = "timed out: stopped every pod";
    stop_cause_ = "--timeout";
  }
}

void StageRunner::read_output(Process* process) {
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(process->output, buffer, sizeof buffer);
    if (n > 0) {
      process->partial.append(buffer, static_cast<size_t>(n));
      print_lines(process, false);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    print_lines(process, true);  // end of output
    ::close(process->output);
    process->output = -1;
    return;
  }
}

/// Prints the whole lines gathered so far (and at the end, what is left), so lines of
/// different pods never mix.
void StageRunner::print_lines(Process* process, bool at_end) {
  std::string& text = process->partial;
  size_t end = at_end ? text.size() : text.rfind('\n') + 1;
  if (end == 0 || text.empty()) return;
  std::string prefix = line_prefix(*process);
  std::string label = settings_.prefix ? pods_[process->pod].label : "";
  std::string block;
  size_t start = 0;
  while (start < end) {
    size_t newline = text.find('\n', start);
    size_t stop = newline == std::string::npos || newline >= end ? end : newline + 1;
    std::string_view line(text.data() + start, stop - start);
    start = stop;
    ProgressLine read = classify_progress_line(line);
    if (read.kind == ProgressLine::Kind::kNotJson) bad_progress_->add(read.body);
    if (live_ != nullptr && read.progress && live_->take(label, line)) continue;
    block += prefix;
    block.append(line);
    if (block.back() != '\n') block += '\n';
  }
  text.erase(0, end);
  if (block.empty()) return;
  if (live_ != nullptr) live_->clear();
  std::fwrite(block.data(), 1, block.size(), settings_.out);
  std::fflush(settings_.out);
  if (live_ != nullptr) live_->redraw();
}

/// A line for the user on the log stream, above the live progress line.
void StageRunner::note(const std::string& text) {
  if (live_ != nullptr) live_->clear();
  std::fprintf(settings_.log, "%s\n", text.c_str());
  std::fflush(settings_.log);
  if (live_ != nullptr) live_->redraw();
}

std::string StageRunner::line_prefix(const Process& process) const {
  if (!settings_.prefix) return {};
  const LocalPod& pod = pods_[process.pod];
  const auto& list = process.init ? pod.init_containers : pod.containers;
  bool several = pod.containers.size() + pod.init_containers.size() > 1;
  return "[" + pod.label + (several ? "/" + list[process.container].name : "") + "] ";
}

/// Reaps every child that ended: the containers, and, the plugin being their subreaper,
/// whatever a container left behind that ended since.
void StageRunner::reap() {
  for (;;) {
    int status = 0;
    pid_t done = ::waitpid(-1, &status, WNOHANG);
    if (done <= 0) return;
    // By index, and with a copy: on_exit starts containers, which grows processes_.
    for (size_t i = 0; i < processes_.size(); ++i) {
      if (processes_[i].pid != done || processes_[i].exited) continue;
      processes_[i].exited = true;
      processes_[i].status = status;
      end_container(processes_[i]);
      on_exit(Process(processes_[i]));
      break;
    }
  }
}

/// Like a container, everything it started ends with its main process: its process
/// group, and its descendants that left the group (setsid, a double fork), which the
/// plugin finds among its own descendants by the container's marker.
void StageRunner::end_container(const Process& process) const {
  signal_process(process.pid, true, SIGKILL);
  std::string marker = process.marker;
  kill_until_gone(
      [&] {
        std::vector<pid_t> marked;
        for (pid_t pid : descendants_of(::getpid())) {
          if (has_env_entry(pid, marker, false)) marked.push_back(pid);
        }
        return marked;
      },
      [&](pid_t pid) { return has_env_entry(pid, marker, false); }, [] {});
  if (settings_.groups != nullptr) settings_.groups->ended(process.pid);
}

/// SIGTERM to every process group still running, SIGKILL after the grace period; then
/// the rest of their output. What they wrote before is shown first, and they are marked
/// stopped by `reason`.
void StageRunner::stop_all(const std::string& reason) {
  for (Process& process : processes_) {
    if (process.output >= 0) read_output(&process);
    if (!process.exited) process.stopped = true;
  }
  if (stop_reason_.empty()) stop_reason_ = reason;
  std::string kept = failure_;  // the first failure is the one to report
  auto wait_until = [&](SteadyTime until) {
    deadline_ = until;
    wait_for_events();
    failure_ = kept;
    return running_groups();
  };
  std::vector<pid_t> groups = running_groups();
  stop_groups(groups, settings_.grace_seconds, wait_until);
  // A process that left its group may hold the output open a little longer.
  while (running_count() > 0)
    wait_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
}

std::vector<pid_t> StageRunner::running_groups() const {
  std::vector<pid_t> groups;
  for (const Process& process : processes_) {
    if (!process.exited) groups.push_back(process.pid);
  }
  return groups;
}

}  // namespace trainjob
