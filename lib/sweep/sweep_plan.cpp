#include "sweep/sweep_plan.h"

#include <random>

#include "model/vocabulary.h"
#include "optimize/optimization_job.h"

namespace trainjob {
namespace {

bool is_optimization_job(const RenderedUnit& unit) {
  return unit.source != nullptr && unit.source->kind() == kOptimizationJobKind;
}

/// Whatever else the inputs compile to (a TrainJob, a legacy kind) would not be run by the
/// trials, which run the OptimizationJob alone.
bool runs_alone(const RenderResult& result) {
  int compiled = 0;
  for (const RenderedUnit& unit : result.units)
    compiled += unit.compiled || is_optimization_job(unit) ? 1 : 0;
  return compiled == 1;
}

bool read_from_stdin(const RenderResult& result) {
  for (const Document& document : result.documents)
    if (document.file == "STDIN") return true;
  return false;
}

std::string seed_note(const OptimizationJob& job, int64_t seed, bool seed_picked) {
  if (job.grid) return "";
  if (job.seed) return "seed " + std::to_string(*job.seed);
  if (!seed_picked) return "seed " + std::to_string(seed) + " (--seed)";
  return "seed " + std::to_string(seed) + " (picked: pass --seed " + std::to_string(seed) +
         " to draw these trials again)";
}

}  // namespace

const RenderedUnit* find_optimization_unit(const RenderResult& result) {
  for (const RenderedUnit& unit : result.units)
    if (is_optimization_job(unit)) return &unit;
  return nullptr;
}

int64_t pick_sweep_seed() {
  std::random_device entropy;
  return static_cast<int64_t>(entropy() & 0x7fffffffU);
}

std::optional<SweepDrive> plan_sweep(const RenderResult& result, int64_t seed, bool seed_picked,
                                     std::vector<std::string> self_argv, std::string* error) {
  const RenderedUnit* unit = find_optimization_unit(result);
  if (unit == nullptr) return std::nullopt;
  if (!runs_alone(result)) {
    *error =
        "an OptimizationJob runs alone: its trials read the same inputs again, so give "
        "other TrainJobs to another command";
    return std::nullopt;
  }
  if (read_from_stdin(result)) {
    *error =
        "an OptimizationJob's trials each read the inputs again: give them as files "
        "(-f FILE), not on stdin";
    return std::nullopt;
  }
  Diagnostics ignored;  // the render that came first reported them
  std::optional<OptimizationJob> job = read_optimization_job(*unit->source, &ignored);
  if (!job) {
    *error = "OptimizationJob " + unit->source->name() + " could not be read again";
    return std::nullopt;
  }
  SweepDrive drive;
  drive.name = job->name;
  drive.objective = objective_of(*job);
  drive.parallel = job->parallel_trials;
  uint64_t drawn = static_cast<uint64_t>(job->seed.value_or(seed));
  drive.trials = waiting_trials(*job, drawn);
  drive.seed_note = seed_note(*job, seed, seed_picked);
  drive.child_argv = std::move(self_argv);
  if (seed_picked && !job->grid && !job->seed)
    drive.child_argv.insert(drive.child_argv.end(), {"--seed", std::to_string(seed)});
  return drive;
}

}  // namespace trainjob
