// `run --local` and `submit --wait` of an OptimizationJob: the search driven from here, each
// trial the plugin run again with `--trial K` (lib/sweep).
#ifndef TRAINJOB_CMD_SWEEP_COMMAND_H_
#define TRAINJOB_CMD_SWEEP_COMMAND_H_

#include <functional>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "input_flags.h"
#include "pipeline/render_pipeline.h"
#include "sweep/sweep_driver.h"

namespace trainjob {

struct SweepFlags {
  std::string trial_logs;  ///< --trial-logs DIR
  bool seed_picked = false;
  int64_t seed = 0;
};

/// Declares --trial, --seed and --trial-logs of run and submit.
void add_run_sweep_flags(CLI::App* app, InputFlags* inputs, SweepFlags* sweep);

/// Before rendering: a random search without a seed gets one picked (and recorded by the
/// trials), unless --seed or --trial was given.
void pick_seed(const InputFlags& inputs, SweepFlags* sweep, RenderRequest* request);

/// When `result` holds an OptimizationJob and no --trial was given: drives its search,
/// `customize` adding what the command needs (the cluster's metrics and clean-up), and returns
/// the exit code. Null when there is no search to drive.
std::optional<int> drive_optimization(const InputFlags& inputs, const SweepFlags& sweep,
                                      const RenderResult& result,
                                      const std::function<void(SweepDrive*)>& customize = {});

}  // namespace trainjob

#endif  // TRAINJOB_CMD_SWEEP_COMMAND_H_
