// From rendered inputs to the search the driver runs: the one OptimizationJob among them,
// its trials and objective, the seed and how it was chosen, and the command line of a trial.
#ifndef TRAINJOB_SWEEP_SWEEP_PLAN_H_
#define TRAINJOB_SWEEP_SWEEP_PLAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/render_pipeline.h"
#include "sweep/sweep_driver.h"

namespace trainjob {

/// The OptimizationJob among `result`'s units; null when there is none.
const RenderedUnit* find_optimization_unit(const RenderResult& result);

/// A seed for a random search whose spec has none and for which --seed was not given, from
/// the system's entropy: `submit` and `run --local` record and print it.
int64_t pick_sweep_seed();

/// The search of the OptimizationJob in `result`, its trials drawn with `seed` unless the
/// spec has its own, each trial run as `self_argv` plus `--trial K` (plus `--seed S` when
/// `seed_picked`). Null with `*error` set when the inputs hold more than the one
/// OptimizationJob, or an input came from stdin (each trial reads the inputs again).
std::optional<SweepDrive> plan_sweep(const RenderResult& result, int64_t seed, bool seed_picked,
                                     std::vector<std::string> self_argv, std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_SWEEP_SWEEP_PLAN_H_
