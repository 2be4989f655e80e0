// The launcher: one worker process per local rank, restarted as a group when one fails.
#ifndef TRAINJOB_TRAINER_LAUNCH_LAUNCHER_H_
#define TRAINJOB_TRAINER_LAUNCH_LAUNCHER_H_

#include <string>
#include <vector>

#include "launch/worker_env.h"

namespace trainjob::trainer {

/// Runs the workers `worker_path worker_args...` (found on PATH when it has no '/') until they all
/// exit 0 (returns 0), a worker fails with no restarts left (returns 1, after saying which rank and
/// how), or SIGTERM/SIGINT arrives (forwarded to the workers; returns 128 + the signal number).
int run_launcher(const LaunchPlan& plan, const std::string& worker_path,
                 const std::vector<std::string>& worker_args);

}  // namespace trainjob::trainer

#endif  // TRAINJOB_TRAINER_LAUNCH_LAUNCHER_H_
