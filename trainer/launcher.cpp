#include "launcher.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <signal.h>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace trainjob::trainer {
namespace {

// Healthy workers get this long to exit after SIGTERM before SIGKILL.
constexpr int kStopGraceSeconds = 10;

struct Worker {
  int local_rank = 0;
  pid_t pid = -1;  // -1 once reaped
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

[[noreturn]] void exec_worker(const LaunchPlan& plan, int local_rank, int attempt,
                              const std::string& worker_path,
                              const std::vector<std::string>& worker_args,
                              const sigset_t& original_mask) {
  // A worker must not outlive a launcher killed with SIGKILL.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  sigprocmask(SIG_SETMASK, &original_mask, nullptr);
  const bool omp_set = std::getenv("OMP_NUM_THREADS") != nullptr;
  for (const auto& [name, value] : worker_env(plan, local_rank, attempt, omp_set)) {
    setenv(name.c_str(), value.c_str(), 1);
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(worker_path.c_str()));
  for (const auto& arg : worker_args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(worker_path.c_str(), argv.data());
  std::fprintf(stderr, "trainjob-trainer: error: cannot run %s: %s\n", worker_path.c_str(),
               std::strerror(errno));
  _exit(127);
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    int signal_number = WTERMSIG(status);
    return "was killed by signal " + std::to_string(signal_number) + " (" +
           strsignal(signal_number) + ")";
  }
  return "stopped with wait status " + std::to_string(status);
}

class WorkerGroup {
 public:
  WorkerGroup(const LaunchPlan& plan, std::string worker_path, std::vector<std::string> args)
      : plan_(plan), worker_path_(std::move(worker_path)), args_(std::move(args)) {}

  bool start(int attempt, const sigset_t& original_mask) {
    workers_.clear();
    for (int local_rank = 0; local_rank < plan_.nproc_per_node; ++local_rank) {
      pid_t pid = fork();
      if (pid < 0) {
        std::fprintf(stderr, "trainjob-trainer: error: fork: %s\n", std::strerror(errno));
        signal_all(SIGKILL);
        return false;
      }
      if (pid == 0) exec_worker(plan_, local_rank, attempt, worker_path_, args_, original_mask);
      workers_.push_back({local_rank, pid, 0});
    }
    return true;
  }

  // Reaps every exited worker; returns one that failed, if any: `first_to_exit` when it
  // failed. A worker's failure makes its peers fail a moment later, and the one that went
  // first is the cause worth naming.
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

  bool all_exited() const {
    for (const auto& worker : workers_) {
      if (worker.pid > 0) return false;
    }
    return true;
  }

  void signal_all(int signal_number) {
    for (const auto& worker : workers_) {
      if (worker.pid > 0) kill(worker.pid, signal_number);
    }
  }

  // SIGTERM to the workers still running, SIGKILL to those that outlast the grace period.
  void stop(const sigset_t& signals) {
    signal_all(SIGTERM);
    const time_t deadline = std::time(nullptr) + kStopGraceSeconds;
    while (reap(), !all_exited()) {
      if (std::time(nullptr) >= deadline) {
        signal_all(SIGKILL);
        while (reap(), !all_exited())
          usleep(10'000);
        return;
      }
      timespec wait_time{0, 100'000'000};
      sigtimedwait(&signals, nullptr, &wait_time);
    }
  }

 private:
  LaunchPlan plan_;
  std::string worker_path_;
  std::vector<std::string> args_;
  std::vector<Worker> workers_;
};

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
    const Worker* failed = nullptr;
    while (failed == nullptr && !group.all_exited()) {
      siginfo_t info;
      int signal_number = sigwaitinfo(&signals, &info);
      if (signal_number == SIGTERM || signal_number == SIGINT) {
        group.signal_all(signal_number);
        group.stop(signals);
        return 128 + signal_number;
      }
      // A pending SIGCHLD keeps the details of the first child that ended; later ones
      // merge into it.
      failed = group.reap(signal_number == SIGCHLD ? info.si_pid : -1);
    }
    if (failed == nullptr) return 0;

    const Worker culprit = *failed;
    group.stop(signals);
    const std::string what =
        "worker rank " + std::to_string(global_rank(plan, culprit.local_rank)) + " (local rank " +
        std::to_string(culprit.local_rank) + ") " + describe_status(culprit.status);
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
