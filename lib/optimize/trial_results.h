// What a sweep's trials came to, as the driver of `submit --wait` and `run --local` and
// `status OPTJOB` see it: each trial's state and last metrics, the best trial by the
// objective, and the table all three print.
#ifndef TRAINJOB_OPTIMIZE_TRIAL_RESULTS_H_
#define TRAINJOB_OPTIMIZE_TRIAL_RESULTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/trainer_progress.h"
#include "optimize/optimization_job.h"

namespace trainjob {

enum class TrialState { kWaiting, kRunning, kSucceeded, kFailed, kStopped };

/// Waiting, Running, Succeeded, Failed, Stopped.
const char* trial_state_name(TrialState state);

using NamedValues = std::vector<std::pair<std::string, std::string>>;

struct TrialResult {
  int64_t index = 1;   ///< from 1
  std::string name;    ///< <optimization job>-trial-<index>
  NamedValues values;  ///< the assignment, in parameter order
  TrialState state = TrialState::kWaiting;
  NamedValues metrics;  ///< the last value of each metric reported, in the order first seen
  std::string message;  ///< why it failed or was stopped
  BadProgressLines bad_progress;  ///< its progress lines that were not JSON
};

/// The objective as a sweep weighs it: objectives[0].
struct SweepObjective {
  std::string metric;
  bool maximize = false;
};
SweepObjective objective_of(const OptimizationJob& job);

/// Every trial of `job` (a random search drawn with `seed`), waiting to run.
std::vector<TrialResult> waiting_trials(const OptimizationJob& job, uint64_t seed);

/// The value of metric `name` in `metrics`; null when it is not there.
const std::string* metric_named(const NamedValues& metrics, const std::string& name);

/// Sets each of `reported` in `metrics`: a value seen before is replaced where it stands, a
/// new one appended.
void merge_metrics(const NamedValues& reported, NamedValues* metrics);

/// Merges into `metrics` those of every TRAINJOB_PROGRESS line of `text` (one line of output
/// or a whole log), in order, so that a metric printed only on some lines keeps its last value;
/// the progress lines that are not JSON are counted into `bad` when given.
void merge_progress_metrics(std::string_view text, NamedValues* metrics,
                            BadProgressLines* bad = nullptr);

/// The objective's value in `trial`'s metrics; null when it reported none or it is no number.
std::optional<double> objective_value(const TrialResult& trial, const SweepObjective& objective);

/// The index in `trials` of the succeeded trial with the best objective value (the earlier
/// trial on a tie); null when no succeeded trial reported it.
std::optional<size_t> best_trial(const std::vector<TrialResult>& trials,
                                 const SweepObjective& objective);

/// `TRIAL  LR  BATCH_SIZE  STATE  LOSS` and a row per trial (`-` for no value yet).
std::string format_sweep_table(const std::vector<TrialResult>& trials,
                               const SweepObjective& objective);

/// `lr=0.1, batch_size=32`.
std::string describe_values(const TrialResult& trial);

/// `best: NAME (lr=0.1, batch_size=32): loss 0.012 (Minimize)`.
std::string describe_best(const TrialResult& best, const SweepObjective& objective);

/// Why the search ends when a trial succeeded without reporting the objective: names the
/// metrics it did report, or says it reported none and how a program reports them, and how
/// many of its progress lines were not JSON.
std::string missing_metric_message(const TrialResult& trial, const SweepObjective& objective);

}  // namespace trainjob

#endif  // TRAINJOB_OPTIMIZE_TRIAL_RESULTS_H_
