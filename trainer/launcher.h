// The launcher: one worker process per local rank, restarted as a group when one fails.
#pragma once

#include <string>
#include <vector>

#include "worker_env.h"

namespace trainjob::trainer {

// How a worker process runs: `entry` in a forked copy of the launcher when the worker code is
// already loaded (no second libtorch start-up per worker), else `path` executed.
struct WorkerProgram {
  int (*entry)(int, char**) = nullptr;
  std::string path;
  std::vector<std::string> args;
};

// Runs the workers until they all exit 0 (returns 0), a worker fails with no restarts left
// (returns 1, after saying which rank and how), or SIGTERM/SIGINT arrives (forwarded to the
// workers; returns 128 + the signal number).
int run_launcher(const LaunchPlan& plan, const WorkerProgram& program);

}  // namespace trainjob::trainer
