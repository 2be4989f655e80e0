// One stage of a local run: its pods' containers as processes, their output as whole
// lines, how each container's end moves its pod on (and a legacy kind's success rule), and
// the stop of everything still running.
#ifndef TRAINJOB_LOCAL_STAGE_RUNNER_H_
#define TRAINJOB_LOCAL_STAGE_RUNNER_H_

#include <string>
#include <sys/types.h>
#include <vector>

#include "local/live_progress.h"
#include "local/plan/local_plan.h"
#include "local/plan_runner.h"
#include "local/run_summary.h"
#include "model/trainer_progress.h"
#include "util/process.h"

namespace trainjob {

/// One running container.
struct Process {
  size_t pod = 0;
  bool init = false;
  size_t container = 0;  ///< index in the pod's init_containers or containers
  pid_t pid = -1;
  int output = -1;  ///< read end of its stdout+stderr
  std::string partial;
  bool exited = false;
  int status = 0;
  std::string marker;    ///< the environment entry its processes carry
  bool stopped = false;  ///< still running when the run stopped it
};

class StageRunner {
 public:
  StageRunner(const std::vector<LocalPod>& pods, const RunSettings& settings, SteadyTime deadline,
              std::string marker_prefix, const LocalSuccessRule* rule, LiveProgress* live,
              BadProgressLines* bad_progress)
      : pods_(pods),
        settings_(settings),
        deadline_(deadline),
        marker_prefix_(std::move(marker_prefix)),
        rule_(rule),
        live_(live),
        bad_progress_(bad_progress) {
    for (const LocalPod& pod : pods_)
      results_.push_back({pod.step, pod.job, PodOutcome::kRunning});
    succeeded_containers_.assign(pods_.size(), 0);
  }

  bool run(std::string* failure);
  /// Whether a signal (SIGINT, SIGTERM, SIGHUP) stopped it.
  bool interrupted() const { return stop_cause_ == "interrupt"; }
  /// How each pod of the stage ended, for the summary.
  std::vector<PodEnd> ends() const;

 private:
  void start_pod(size_t pod);
  void start_main_containers(size_t pod);
  void start(size_t pod, bool init, size_t index);
  size_t running_count() const;
  void wait_for_events();
  void read_output(Process* process);
  /// Prints the whole lines gathered so far (and at the end, what is left), so lines of
  /// different pods never mix.
  void print_lines(Process* process, bool at_end);
  /// A line for the user on the log stream, above the live progress line.
  void note(const std::string& text);
  bool policy_stops() const;
  std::string line_prefix(const Process& process) const;
  /// Reaps every child that ended: the containers, and, the plugin being their subreaper,
  /// whatever a container left behind that ended since.
  void reap();
  /// Like a container, everything it started ends with its main process: its process
  /// group, and its descendants that left the group (setsid, a double fork), which the
  /// plugin finds among its own descendants by the container's marker.
  void end_container(const Process& process) const;
  void on_exit(const Process& process);
  /// A legacy kind's pod ended: its rule, not the first failure, decides when the run ends.
  void pod_ended(size_t pod, PodOutcome outcome, const std::string& failure);
  /// Says the rule decided, and what becomes of the pods still running.
  void announce_rule_met();
  /// SIGTERM to every process group still running, SIGKILL after the grace period; then
  /// the rest of their output. What they wrote before is shown first, and they are marked
  /// stopped by `reason`.
  void stop_all(const std::string& reason);
  std::vector<pid_t> running_groups() const;

  const std::vector<LocalPod>& pods_;
  const RunSettings& settings_;
  SteadyTime deadline_;
  std::vector<Process> processes_;
  std::string failure_;
  std::string marker_prefix_;  ///< a container's marker is this and its number
  size_t next_marker_ = 0;
  const LocalSuccessRule* rule_;  ///< a legacy kind's; null: every pod must succeed
  std::vector<PodResult> results_;
  std::vector<size_t> succeeded_containers_;  ///< per pod, main containers that exited 0
  std::string first_failure_;                 ///< of a pod the rule looks at
  bool rule_met_ = false;
  std::string stop_cause_;          ///< what failure_ came from: `--timeout`, `interrupt`
  std::string stop_reason_;         ///< what stopped the pods still running, for the summary
  LiveProgress* live_;              ///< on a terminal; null: progress lines stay raw
  BadProgressLines* bad_progress_;  ///< the progress lines that were not JSON, counted
};

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_STAGE_RUNNER_H_
