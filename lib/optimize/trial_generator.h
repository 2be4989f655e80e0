// The trials of a sweep, a pure function of the OptimizationJob (and, for random search, a
// seed): the same values on every machine and every release of the plugin, so a rendered
// sweep is as reproducible as any other rendered TrainJob. docs/sweeps.md states the rules.
#ifndef TRAINJOB_OPTIMIZE_TRIAL_GENERATOR_H_
#define TRAINJOB_OPTIMIZE_TRIAL_GENERATOR_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "optimize/optimization_job.h"

namespace trainjob {

/// xoshiro256** (Blackman and Vigna), its state filled by SplitMix64 from the seed: written
/// out here rather than taken from <random>, whose distributions differ between standard
/// libraries.
class SweepRandom {
 public:
  explicit SweepRandom(uint64_t seed);
  uint64_t next();
  /// A double in [0, 1) from the top 53 bits of next().
  double unit();

 private:
  uint64_t state_[4];
};

/// One trial: its number (from 1) and a value per parameter, in parameter order.
struct Trial {
  int64_t index = 1;
  std::vector<std::pair<std::string, std::string>> values;  ///< name, value as text
};

/// The value of `parameter` for the draw `unit` in [0, 1): uniform Float min + u(max - min);
/// Int the integers from ceil(min) to floor(max), each as likely; logUniform the same in log
/// space (Int rounded to the nearest, kept in range); categorical choices[floor(u n)].
std::string draw_value(const SearchParameter& parameter, double unit);

/// Random search: trial after trial, one draw per parameter in parameter order.
std::vector<Trial> random_trials(const OptimizationJob& job, uint64_t seed);

/// Grid search: the product of the choices, the first parameter varying slowest, the first
/// `job.num_trials` points. `grid_size` gets the number of points (at most 2^62).
std::vector<Trial> grid_trials(const OptimizationJob& job, uint64_t* grid_size);

}  // namespace trainjob

#endif  // TRAINJOB_OPTIMIZE_TRIAL_GENERATOR_H_
