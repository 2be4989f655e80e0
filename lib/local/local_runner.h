// Runs a local plan: stage by stage, every pod at once, each container a process in its
// own process group, output prefixed per pod in whole lines. The first container that
// fails stops every other process, as a failed Job fails a JobSet.
#ifndef TRAINJOB_LOCAL_LOCAL_RUNNER_H_
#define TRAINJOB_LOCAL_LOCAL_RUNNER_H_

#include <cstdio>
#include <string>

#include "local/local_plan.h"

namespace trainjob {

struct RunSettings {
  double timeout_seconds = 0;  ///< 0: none
  double grace_seconds = 5;    ///< between SIGTERM and SIGKILL when stopping
  bool prefix = true;          ///< `[node-0] ` before each line
  std::FILE* out = stdout;
};

/// Runs `plan`; true when every pod succeeded. Otherwise `*failure` says which pod and
/// container failed and how (exit status, signal), or that the run timed out or was
/// interrupted (SIGINT, SIGTERM).
bool run_local_plan(const LocalPlan& plan, const RunSettings& settings, std::string* failure);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LOCAL_RUNNER_H_
