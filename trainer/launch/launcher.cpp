#include "launch/launcher.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "util/process.h"

namespace trainjob::trainer {
namespace {

/// Healthy workers get this long to exit after SIGTERM before SIGKILL.
constexpr int kStopGraceSeconds = 10;

struct Worker {
  int local_rank = 0;
  pid_t pid = -1;  ///< -1 once reaped
  int status = 0;
};

sigset_t launcher_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

class WorkerGroup {
 public:
  WorkerGroup(const LaunchPlan& plan, std::string worker_path, std::vector<std::string> args)
      : plan_(plan), worker_path_(std::move(worker_path)), args_(std::move(args)) {}

  bool start(int attempt, const sigset_t& original_mask) {
    workers_.clear();
    const bool omp_set = std::getenv("OMP_NUM_THREADS") != nullptr;
    for (int local_rank = 0; local_rank < plan_.nproc_per_node; ++local_rank) {
      SpawnRequest request;
      request.argv.push_back(worker_path_);
      request.argv.insert(request.argv.end(), args_.begin(), args_.end());
      // python3 for a script (torchrun's command line), looked up on PATH; the worker binary
      // is an absolute path.
      request.env = worker_env(plan_, local_rank, attempt, omp_set);
      // A group of its own, so that stopping a worker stops what it started (a data loader,
      // a script's subprocesses) too; SIGINT from the terminal reaches the launcher alone,
      // which forwards it once.
      request.own_group = true;
      request.die_with_parent = true;  // no worker outlives a launcher killed with SIGKILL
      request.signal_mask = &original_mask;
      request.error_prefix = "trainjob-trainer: error: ";
      std::string error;
      pid_t pid = spawn_process(request, &error);
      if (pid < 0) {
        std::fprintf(stderr, "trainjob-trainer: error: %s\n", error.c_str());
        signal_all(SIGKILL);
        return false;
      }
      workers_.push_back({local_rank, pid, 0});
    }
    return true;
  }

  /// Reaps every exited worker; returns one that failed, if any: `first_to_exit` when it
  /// failed. A worker's failure makes its peers fail a moment later, and the one that went
  /// first is the cause worth naming.
  const Worker* reap(pid_t first_to_exit = -1) {
    const Worker* failed = nullptr;
    for (;;) {
      int status = 0;
      pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      for (auto& worker : workers_) {
        if (worker.pid != pid) continue;
        worker.pid = -1;
        worker.status = status;
        if (status != 0 && (failed == nullptr || pid == first_to_exit)) failed = &worker;
      }
    }
    return failed;
  }

  bool all_exited() const { return running().empty(); }

  std::vector<pid_t> running() const {
    std::vector<pid_t> pids;
    for (const auto& worker : workers_) {
      if (worker.pid > 0) pids.push_back(worker.pid);
    }
    return pids;
  }

  void signal_all(int signal_number) {
    for (pid_t pid : running())
      signal_process(pid, true, signal_number);
  }

  /// SIGTERM to the workers still running, SIGKILL to those that outlast the grace period.
  void stop(const sigset_t& signals) {
    stop_groups(running(), kStopGraceSeconds, [&](SteadyTime until) {
      auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(
          until - std::chrono::steady_clock::now());
      if (left.count() > 0) {
        timespec wait_time{static_cast<time_t>(left.count() / 1'000'000'000),
                           static_cast<long>(left.count() % 1'000'000'000)};
        sigtimedwait(&signals, nullptr, &wait_time);
      }
      reap();
      return running();
    });
  }

 private:
  LaunchPlan plan_;
  std::string worker_path_;
  std::vector<std::string> args_;
  std::vector<Worker> workers_;
};

/// How a started group ended: all exited 0 (neither field set), a worker failed, or a stop
/// signal (SIGTERM, SIGINT) arrived.
struct GroupEnd {
  const Worker* failed = nullptr;
  int stop_signal = 0;
};

/// Sleeps on `signals` until every worker has exited, one has failed, or we are told to stop.
GroupEnd wait_for_group(WorkerGroup& group, const sigset_t& signals) {
  GroupEnd end;
  while (end.failed == nullptr && !group.all_exited()) {
    siginfo_t info;
    int signal_number = sigwaitinfo(&signals, &info);
    if (signal_number == SIGTERM || signal_number == SIGINT) {
      end.stop_signal = signal_number;
      return end;
    }
    // A pending SIGCHLD keeps the details of the first child that ended; later ones
    // merge into it.
    end.failed = group.reap(signal_number == SIGCHLD ? info.si_pid : -1);
  }
  return end;
}

/// "worker rank 1 (local rank 1) failed with exit status 3".
std::string describe_failure(const LaunchPlan& plan, const Worker& culprit) {
  return "worker rank " + std::to_string(global_rank(plan, culprit.local_rank)) + " (local rank " +
         std::to_string(culprit.local_rank) + ") failed with " + describe_status(culprit.status);
}

}  // namespace

int run_launcher(const LaunchPlan& plan, const std::string& worker_path,
                 const std::vector<std::string>& worker_args) {
  const sigset_t signals = launcher_signals();
  sigset_t original_mask;
  sigprocmask(SIG_BLOCK, &signals, &original_mask);

  WorkerGroup group(plan, worker_path, worker_args);
  const int first_rank = global_rank(plan, 0);
  for (int attempt = 0;; ++attempt) {
    std::fprintf(stderr,
                 "trainjob-trainer: node %d of %d: starting workers %d-%d of %d (attempt %d)\n",
                 plan.node_rank, plan.nnodes, first_rank, first_rank + plan.nproc_per_node - 1,
                 plan.nnodes * plan.nproc_per_node, attempt);
    if (!group.start(attempt, original_mask)) return 1;
    const GroupEnd end = wait_for_group(group, signals);
    if (end.stop_signal != 0) {
      group.signal_all(end.stop_signal);
      group.stop(signals);
      return 128 + end.stop_signal;
    }
    if (end.failed == nullptr) return 0;

    const std::string what = describe_failure(plan, *end.failed);
    group.stop(signals);
    if (attempt >= plan.max_restarts) {
      std::fprintf(stderr, "trainjob-trainer: error: %s; no restarts left (--max-restarts %d)\n",
                   what.c_str(), plan.max_restarts);
      return 1;
    }
    std::fprintf(stderr, "trainjob-trainer: %s; restarting the workers (restart %d of %d)\n",
                 what.c_str(), attempt + 1, plan.max_restarts);
  }
}

}  // namespace trainjob::trainer
