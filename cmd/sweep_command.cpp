#include "sweep_command.h"

#include <cstdio>
#include <filesystem>

#include "command.h"
#include "sweep/sweep_plan.h"

namespace trainjob {

void add_run_sweep_flags(CLI::App* app, InputFlags* inputs, SweepFlags* sweep) {
  add_sweep_flags(app, inputs,
                  "Of an OptimizationJob, run trial K alone, as the TrainJob it is (trials "
                  "count from 1); without it, every trial runs, parallelTrials at a time",
                  "without either, one is picked and printed");
  app->add_option("--trial-logs", sweep->trial_logs,
                  "Of an OptimizationJob, write each trial's output to DIR/<trial>.log")
      ->type_name("DIR");
}

void pick_seed(const InputFlags& inputs, SweepFlags* sweep, RenderRequest* request) {
  if (inputs.trial > 0 || request->sweep.seed) return;
  sweep->seed = pick_sweep_seed();
  sweep->seed_picked = true;
  request->sweep.seed = sweep->seed;
}

std::optional<int> drive_optimization(const InputFlags& inputs, const SweepFlags& sweep,
                                      const RenderResult& result,
                                      const std::function<void(SweepDrive*)>& customize) {
  if (inputs.trial > 0 || find_optimization_unit(result) == nullptr) return std::nullopt;
  std::vector<std::string> self = command_line();
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) self[0] = exe.string();
  int64_t seed = sweep.seed_picked ? sweep.seed : inputs.seed;
  std::string error;
  std::optional<SweepDrive> drive = plan_sweep(result, seed, sweep.seed_picked, self, &error);
  if (!drive) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return static_cast<int>(kExitFailure);
  }
  drive->logs_dir = sweep.trial_logs;
  if (customize) customize(&*drive);
  return drive_sweep(std::move(*drive), stdout, stderr);
}

}  // namespace trainjob
