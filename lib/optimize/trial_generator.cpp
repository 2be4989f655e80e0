#include "optimize/trial_generator.h"

#include <algorithm>
#include <cmath>

#include "util/reproducible_math.h"
#include "util/shortest_double.h"

namespace trainjob {
namespace {

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t rotate_left(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

/// An integer value drawn over [ceil(min), floor(max)], each integer as likely.
int64_t draw_integer(double min, double max, double unit) {
  double low = std::ceil(min);
  double high = std::floor(max);
  double value = std::min(high, low + std::floor(unit * (high - low + 1)));
  return static_cast<int64_t>(value);
}

/// exp(log min + u (log max - log min)), with the logarithm and exponential of our own: libm's
/// differ in the last bit between machines, and glibc's need glibc 2.29 (docs/install.md).
std::string draw_log_uniform(const SearchParameter& parameter, double unit) {
  double low = reproducible_log(parameter.min);
  double value = reproducible_exp(low + unit * (reproducible_log(parameter.max) - low));
  if (!parameter.integer) return shortest_double(std::clamp(value, parameter.min, parameter.max));
  double rounded =
      std::clamp(std::round(value), std::ceil(parameter.min), std::floor(parameter.max));
  return std::to_string(static_cast<int64_t>(rounded));
}

}  // namespace

SweepRandom::SweepRandom(uint64_t seed) {
  for (uint64_t& word : state_)
    word = splitmix64(&seed);
}

uint64_t SweepRandom::next() {
  const uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const uint64_t shifted = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= shifted;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

double SweepRandom::unit() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

std::string draw_value(const SearchParameter& parameter, double unit) {
  switch (parameter.kind) {
    case SearchSpaceKind::kCategorical: {
      size_t n = parameter.choices.size();
      size_t i = std::min(n - 1, static_cast<size_t>(unit * static_cast<double>(n)));
      return parameter.choices[i];
    }
    case SearchSpaceKind::kLogUniform:
      return draw_log_uniform(parameter, unit);
    case SearchSpaceKind::kUniform:
      break;
  }
  if (parameter.integer) return std::to_string(draw_integer(parameter.min, parameter.max, unit));
  double value = parameter.min + unit * (parameter.max - parameter.min);
  return shortest_double(std::min(value, std::nextafter(parameter.max, parameter.min)));
}

std::vector<Trial> random_trials(const OptimizationJob& job, uint64_t seed) {
  SweepRandom random(seed);
  std::vector<Trial> trials;
  for (int64_t k = 1; k <= job.num_trials; ++k) {
    Trial trial{k, {}};
    for (const SearchParameter& parameter : job.parameters)
      trial.values.emplace_back(parameter.name, draw_value(parameter, random.unit()));
    trials.push_back(std::move(trial));
  }
  return trials;
}

std::vector<Trial> grid_trials(const OptimizationJob& job, uint64_t* grid_size) {
  uint64_t size = 1;
  const uint64_t most = uint64_t{1} << 62;
  for (const SearchParameter& parameter : job.parameters) {
    uint64_t n = parameter.choices.size();
    size = n == 0 || size > most / n ? most : size * n;
  }
  *grid_size = size;
  uint64_t count = std::min<uint64_t>(size, static_cast<uint64_t>(job.num_trials));
  std::vector<Trial> trials;
  std::vector<size_t> digits(job.parameters.size(), 0);  // an odometer, last parameter fastest
  for (uint64_t k = 1; k <= count; ++k) {
    Trial trial{static_cast<int64_t>(k), {}};
    for (size_t i = 0; i < digits.size(); ++i)
      trial.values.emplace_back(job.parameters[i].name, job.parameters[i].choices[digits[i]]);
    trials.push_back(std::move(trial));
    for (size_t i = digits.size(); i-- > 0;) {
      if (++digits[i] < job.parameters[i].choices.size()) break;
      digits[i] = 0;
    }
  }
  return trials;
}

}  // namespace trainjob
