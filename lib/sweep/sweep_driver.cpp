#include "sweep/sweep_driver.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <poll.h>
#include <sys/wait.h>

#include "local/signal_catcher.h"
#include "sweep/sweep_display.h"
#include "sweep/trial_process.h"
#include "util/process.h"

namespace trainjob {
namespace {

constexpr int kExitInterrupted = 130;
/// How often the table is redrawn while nothing happens (running times, a live metric).
constexpr int kRefreshMilliseconds = 1000;

double seconds_since(SteadyTime start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Why a trial failed: the last error its plugin run printed (which names the pod and its
/// exit), else how it ended and its last line.
std::string failure_message(const std::deque<std::string>& lines, int status) {
  const std::string marker = "error: ";
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    size_t at = it->find(marker);
    if (at != std::string::npos) return it->substr(at + marker.size());
  }
  return describe_status(status) + (lines.empty() ? "" : ": " + lines.back());
}

class SweepRunner {
 public:
  SweepRunner(SweepDrive drive, std::FILE* out, std::FILE* err)
      : drive_(std::move(drive)),
        display_(out, err),
        processes_(drive_.trials.size()),
        started_(drive_.trials.size()) {}

  int run();

 private:
  void start_trials();
  void start_trial(size_t i);
  void wait_for_events();
  void collect(size_t i);
  void finish_trial(size_t i, int status);
  void succeed_trial(size_t i);
  void stop_search(const std::string& reason, int code);
  int summary();

  SweepDrive drive_;
  SweepDisplay display_;
  std::vector<std::unique_ptr<TrialProcess>> processes_;
  std::vector<SteadyTime> started_;
  size_t next_ = 0;
  int running_ = 0;
  bool stopping_ = false;
  int stop_code_ = 0;
  std::string stop_reason_;
  int signals_ = 0;
};

void SweepRunner::start_trial(size_t i) {
  TrialResult& trial = drive_.trials[i];
  std::vector<std::string> argv = drive_.child_argv;
  argv.insert(argv.end(), {"--trial", std::to_string(trial.index)});
  std::string log;
  if (!drive_.logs_dir.empty()) log = drive_.logs_dir + "/" + trial.name + ".log";
  auto process = std::make_unique<TrialProcess>();
  std::string error;
  started_[i] = std::chrono::steady_clock::now();
  if (!process->start(argv, log, &error)) {
    trial.state = TrialState::kFailed;
    trial.message = error;
    display_.trial_ended(drive_.trials, i, drive_.objective, 0);
    return;
  }
  trial.state = TrialState::kRunning;
  processes_[i] = std::move(process);
  ++running_;
  display_.trial_started(drive_.trials, i, drive_.objective);
}

void SweepRunner::start_trials() {
  while (!stopping_ && running_ < drive_.parallel && next_ < drive_.trials.size())
    start_trial(next_++);
}

void SweepRunner::wait_for_events() {
  std::vector<pollfd> fds{{SignalCatcher::read_fd(), POLLIN, 0}};
  for (const auto& process : processes_)
    if (process && process->output_fd() >= 0) fds.push_back({process->output_fd(), POLLIN, 0});
  ::poll(fds.data(), fds.size(), kRefreshMilliseconds);
  if (SignalCatcher::stop_requested()) {
    // The first Ctrl-C asks each trial to stop (a local run cleans up its pods); a second
    // one does not wait for that.
    ++signals_;
    stop_search("interrupted", kExitInterrupted);
    for (const auto& process : processes_)
      if (process) process->signal(signals_ > 1 ? SIGKILL : SIGTERM);
  }
}

void SweepRunner::collect(size_t i) {
  TrialProcess* process = processes_[i].get();
  process->read_output(&drive_.trials[i]);
  int status = 0;
  if (!process->reap(&status)) return;
  process->read_output(&drive_.trials[i]);
  --running_;
  finish_trial(i, status);
  processes_[i].reset();
}

void SweepRunner::finish_trial(size_t i, int status) {
  TrialResult& trial = drive_.trials[i];
  bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  // What a trial that ran to its end reported, failed or not (status shows both).
  if ((ok || !stopping_) && drive_.metrics_after) {
    BadProgressLines bad;
    merge_metrics(drive_.metrics_after(trial, &bad), &trial.metrics);
    // The pod's log holds every line the trial's own output may have carried too.
    if (bad.count > trial.bad_progress.count) trial.bad_progress = bad;
  }
  if (ok) {
    succeed_trial(i);
  } else if (stopping_) {
    trial.state = TrialState::kStopped;
    trial.message = stop_code_ == kExitInterrupted ? "interrupted" : "the search ended";
    if (drive_.clean_up) drive_.clean_up(trial);
  } else {
    trial.state = TrialState::kFailed;
    trial.message = failure_message(processes_[i]->last_lines(), status);
  }
  display_.trial_ended(drive_.trials, i, drive_.objective, seconds_since(started_[i]));
}

void SweepRunner::succeed_trial(size_t i) {
  TrialResult& trial = drive_.trials[i];
  trial.state = TrialState::kSucceeded;
  if (metric_named(trial.metrics, drive_.objective.metric) == nullptr)
    stop_search(missing_metric_message(trial, drive_.objective), 1);
}

void SweepRunner::stop_search(const std::string& reason, int code) {
  if (stopping_) return;
  stopping_ = true;
  stop_code_ = code;
  stop_reason_ = code == kExitInterrupted ? "interrupted (Ctrl-C or SIGTERM)" : reason;
  display_.message(code == kExitInterrupted ? "note" : "error", reason);
  if (code == kExitInterrupted) return;
  for (const auto& process : processes_)
    if (process) process->signal(SIGTERM);
}

int SweepRunner::summary() {
  std::optional<size_t> best = best_trial(drive_.trials, drive_.objective);
  display_.finish(drive_.trials, drive_.objective, best, /*say_none=*/stop_code_ == 0);
  if (stop_code_ != 0 && drive_.record_stop) drive_.record_stop(stop_reason_);
  if (stop_code_ != 0) return stop_code_;
  return best ? 0 : 1;
}

int SweepRunner::run() {
  SignalCatcher catcher;
  std::error_code ec;
  if (!drive_.logs_dir.empty()) std::filesystem::create_directories(drive_.logs_dir, ec);
  if (ec) {
    display_.message("error", "--trial-logs " + drive_.logs_dir + ": " + ec.message());
    return 1;
  }
  display_.heading(drive_.name, drive_.trials.size(), drive_.parallel, drive_.objective,
                   drive_.seed_note);
  for (;;) {
    start_trials();
    if (running_ == 0) break;
    wait_for_events();
    for (size_t i = 0; i < processes_.size(); ++i)
      if (processes_[i]) collect(i);
    display_.refresh(drive_.trials, drive_.objective);
  }
  return summary();
}

}  // namespace

int drive_sweep(SweepDrive drive, std::FILE* out, std::FILE* err) {
  SweepRunner runner(std::move(drive), out, err);
  return runner.run();
}

}  // namespace trainjob
