// The running stage of `run --local`: stage by stage, every pod at once, each container a
// process in its own process group, output prefixed per pod in whole lines. The first
// container that fails stops every other process, as a failed Job fails a JobSet. When a
// container's main process ends, so does everything it started, as in a cluster. The run
// ends with one summary line: how each pod ended, and how long it took.
#ifndef TRAINJOB_LOCAL_PLAN_RUNNER_H_
#define TRAINJOB_LOCAL_PLAN_RUNNER_H_

#include <cstdio>
#include <string>
#include <sys/types.h>

#include "local/plan/local_plan.h"

namespace trainjob {

/// Told of every container's process group as it starts and once it has ended (the
/// watchdog, which ends the groups still running if the plugin dies).
class ProcessGroups {
 public:
  virtual ~ProcessGroups() = default;
  virtual void started(pid_t group) = 0;
  virtual void ended(pid_t group) = 0;
};

struct RunSettings {
  double timeout_seconds = 0;  ///< 0: none
  double grace_seconds = 5;    ///< between SIGTERM and SIGKILL when stopping
  bool prefix = true;          ///< `[node-0] ` before each line
  std::FILE* out = stdout;
  std::FILE* log = stderr;  ///< what a legacy kind's rule made of the pods that ended
  /// `out` is a terminal: progress lines become one live line (local/live_progress.h).
  bool live_progress = false;
  bool color = false;  ///< colour the summary's first word on `log`
  /// "NAME=value": each container's environment gets this with a number of its own
  /// appended, by which its processes are found after they left its process group.
  std::string marker = "TRAINJOB_LOCAL_PROCESS=run.";
  ProcessGroups* groups = nullptr;
  /// Set to true when given and a signal (SIGINT, SIGTERM, SIGHUP) stopped the run.
  bool* interrupted = nullptr;
};

/// Runs `plan`; true when every pod succeeded, or, with `plan.rule` (a legacy kind's), when
/// its rule is met: then a failed pod the rule does not look at only says so, the pods run
/// until the rule is decided, and then those still running run to their end (cleanPodPolicy
/// None) or are stopped (Running, All), their output so far shown first. Otherwise `*failure` says
/// which pod and container failed and how (exit status, signal), or that the run timed out or was
/// interrupted (SIGINT, SIGTERM), and every pod still running is stopped. Either way the
/// summary line (local/run_summary.h) goes to `settings.log` last, after a warning when
/// progress lines were not JSON. The caller should be the
/// child subreaper
/// (PR_SET_CHILD_SUBREAPER), so that what a container leaves behind is reaped here.
bool run_local_plan(const LocalPlan& plan, const RunSettings& settings, std::string* failure);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_RUNNER_H_
