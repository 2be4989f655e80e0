// An OptimizationJob on the cluster is no object of its own: it is its trials, TrainJobs whose
// objects carry its name, the trial's number, its assignment and the objective (render writes
// them, lib/optimize/trial_document). Reading a trial from one of its objects, and what
// `status OPTJOB` prints of the trials: pure functions, no requests.
#ifndef TRAINJOB_STATUS_SWEEP_SWEEP_TRIALS_H_
#define TRAINJOB_STATUS_SWEEP_SWEEP_TRIALS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "load/json.h"
#include "optimize/trial_results.h"
#include "status/job_phase.h"

namespace trainjob {

/// What one object of a trial says of it.
struct TrialObject {
  std::string optimization_job;  ///< the optimizationjob-name label
  int64_t index = 0;             ///< the trial-index label; 0 when missing or no number
  std::string trial;   ///< the trial's TrainJob: its trainjob-name label, else <job>-trial-<index>
  NamedValues values;  ///< the optimization-parameters annotation, in its order
  std::optional<SweepObjective> objective;  ///< the optimization-objective annotation
  std::string seed;                         ///< the optimization-seed annotation (random search)
  int64_t num_trials = 0;                   ///< the optimization-trials annotation; 0 when missing
  std::string stopped;  ///< the optimization-stopped annotation: why its search stopped
};

/// The trial `object` belongs to; null when it carries no optimizationjob-name label or names
/// no trial (neither a trainjob-name label nor a trial index). Malformed annotations (they are
/// read from the cluster) give no values or no objective rather than an error.
std::optional<TrialObject> read_trial_object(const Json& object);

/// The trials the objects of one OptimizationJob belong to, one per trial TrainJob, ordered by
/// index then name; a field one object lacks is taken from another of the same trial.
std::vector<TrialObject> distinct_trials(const std::vector<Json>& objects);

/// A trial TrainJob's phase as a sweep state: Complete is Succeeded, Failed and Stopped are
/// Failed, anything else still runs.
TrialState trial_state_of(JobPhase phase);

/// An OptimizationJob as `status` shows it: its trials as they stand.
struct SweepStatus {
  std::string name;
  SweepObjective objective;
  std::string seed;                 ///< empty for a grid
  int64_t num_trials = 0;           ///< the sweep's, as its trials record it; 0: unknown
  std::vector<TrialResult> trials;  ///< by index: those created
  std::string completion_time;      ///< the last trial's end, once none runs
  std::string stopped;              ///< why the search stopped, as its trials record it
};

/// Running while a trial runs; then Stopped when the search stopped before its end (it
/// recorded why, or trials were never created), else Complete when a trial succeeded, Failed
/// when none did.
JobPhase sweep_phase(const SweepStatus& status);

/// Why a Stopped search stopped: what it recorded, else that trials were never created.
std::string sweep_stop_reason(const SweepStatus& status);

/// "8 trials: 1 running, 1 succeeded, 1 failed, 5 not created", states without trials left
/// out.
std::string sweep_counts(const SweepStatus& status);

/// `OptimizationJob NAME: Complete (3 trials: 2 succeeded, 1 failed)`, the table of trials,
/// why each failed or stopped trial ended, and the best trial (or why there is none yet).
std::string format_sweep_status(const SweepStatus& status);

/// The OptimizationJob as upstream's CRD shapes it: status.result (the best trial's TrainJob
/// and parameters), status.conditions once finished, and our own status.trials (with a
/// failed trial's `message`).
Json sweep_status_json(const SweepStatus& status, const std::string& name_space);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_SWEEP_SWEEP_TRIALS_H_
