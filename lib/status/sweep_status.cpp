#include "status/sweep_status.h"

#include <algorithm>

#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "model/vocabulary.h"
#include "status/job_not_found.h"
#include "status/status_progress.h"
#include "status/status_query.h"
#include "status/trainjob_objects.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// GET `log_path` with these bounds.
std::string sweep_log_tail(KubeClient* client, const std::string& log_path, int lines) {
  return read_log_quietly(client, log_path + "&tailLines=" + std::to_string(lines) +
                                      "&limitBytes=" + std::to_string(kTrialMetricsLimitBytes));
}

/// The metrics in the tail of rank 0's log; none when its pod or log is missing. Whether the
/// trial is running or done does not matter: a finished pod keeps its log.
NamedValues rank0_metrics(KubeClient* client, const std::string& name_space,
                          const TrainJobStatus& status, const std::vector<Json>& jobs,
                          const std::vector<Json>& pods, BadProgressLines* bad) {
  std::string path = rank0_log_path(name_space, status, jobs, pods);
  if (path.empty()) return {};
  std::string log = sweep_log_tail(client, path, kTrialMetricsTailLines);
  NamedValues metrics;
  merge_progress_metrics(log, &metrics, bad);
  // limitBytes keeps the first bytes of the tail: when it cut, the newest lines are read
  // again from a short tail, their values last.
  if (log.size() >= static_cast<size_t>(kTrialMetricsLimitBytes))
    merge_progress_metrics(sweep_log_tail(client, path, kProgressTailLines), &metrics);
  return metrics;
}

/// One trial as it stands: its state from its Jobs and pods, its metrics from rank 0's log.
TrialResult sweep_trial_result(KubeClient* client, const std::string& name_space,
                               const TrialObject& trial, const std::vector<Json>& events,
                               std::string* completion_time) {
  std::string selector = trainjob_selector(trial.trial);
  std::vector<Json> jobs = list_objects(client, job_type(), name_space, selector).items;
  std::vector<Json> pods = list_objects(client, pod_type(), name_space, selector).items;
  TrainJobStatus status = compute_status(trial.trial, jobs, pods, events);
  TrialResult result;
  result.index = trial.index;
  result.name = trial.trial;
  result.values = trial.values;
  result.state = trial_state_of(status.phase);
  if (result.state == TrialState::kFailed) result.message = status.message;
  if (jobs.empty()) {  // its Service is left: nothing runs, nothing says how it ended
    result.state = TrialState::kStopped;
    result.message = "its Jobs are gone (only its Service is left)";
  }
  result.metrics = rank0_metrics(client, name_space, status, jobs, pods, &result.bad_progress);
  *completion_time = std::max(*completion_time, status.completion_time);
  return result;
}

std::string sweep_selector(const std::string& name) {
  return url_escape(std::string(kOptimizationJobNameLabel) + "=" + name);
}

}  // namespace

NamedValues trial_metrics(KubeClient* client, const std::string& name_space,
                          const std::string& trial, BadProgressLines* bad) {
  std::string selector = trainjob_selector(trial);
  std::vector<Json> jobs = list_objects(client, job_type(), name_space, selector).items;
  if (jobs.empty()) return {};
  std::vector<Json> pods = list_objects(client, pod_type(), name_space, selector).items;
  TrainJobStatus status = compute_status(trial, jobs, pods, {});
  return rank0_metrics(client, name_space, status, jobs, pods, bad);
}

std::vector<TrialObject> find_sweep_trials(KubeClient* client, const std::string& name_space,
                                           const std::string& name) {
  std::string selector = sweep_selector(name);
  std::vector<Json> objects = list_objects(client, job_type(), name_space, selector).items;
  // A trial whose Jobs are gone still has its Service, as a TrainJob does.
  for (Json& service : list_objects(client, service_type(), name_space, selector).items)
    objects.push_back(std::move(service));
  return distinct_trials(objects);
}

SweepStatus fetch_sweep_status(KubeClient* client, const std::string& name_space,
                               const std::string& name, const std::vector<TrialObject>& trials) {
  SweepStatus status;
  status.name = name;
  status.objective = {"loss", false};  // what the trainer reports, should no trial say
  for (const TrialObject& trial : trials) {
    if (trial.objective) status.objective = *trial.objective;
    if (!trial.seed.empty()) status.seed = trial.seed;
    status.num_trials = std::max(status.num_trials, trial.num_trials);
    if (!trial.stopped.empty()) status.stopped = trial.stopped;
  }
  std::vector<Json> events = pod_events(client, name_space);
  std::string completion_time;
  for (const TrialObject& trial : trials)
    status.trials.push_back(
        sweep_trial_result(client, name_space, trial, events, &completion_time));
  if (sweep_phase(status) != JobPhase::kRunning) status.completion_time = completion_time;
  return status;
}

std::string earlier_sweep_trials(KubeClient* client, const std::string& name_space,
                                 const std::string& name) {
  std::vector<TrialObject> trials = find_sweep_trials(client, name_space, name);
  if (trials.empty()) return "";
  return sweep_counts(fetch_sweep_status(client, name_space, name, trials));
}

std::vector<std::string> delete_sweep_trials(KubeClient* client, const std::string& name_space,
                                             const std::string& name) {
  std::vector<std::string> deleted;
  for (const TrialObject& trial : find_sweep_trials(client, name_space, name)) {
    delete_trainjob(client, name_space, trial.trial, [](const Json&) {});
    deleted.push_back(trial.trial);
  }
  return deleted;
}

size_t record_sweep_stop(KubeClient* client, const std::string& name_space, const std::string& name,
                         const std::string& reason) {
  Json patch = {{"metadata", {{"annotations", {{kOptimizationStoppedAnnotation, reason}}}}}};
  size_t marked = 0;
  for (const ResourceType* type : {&job_type(), &service_type()}) {
    for (const Json& object : list_objects(client, *type, name_space, sweep_selector(name)).items) {
      client->call("PATCH", object_path(*type, name_space, name_of(object)), patch.dump(),
                   "application/merge-patch+json");
      ++marked;
    }
  }
  return marked;
}

void throw_sweep_not_found(const std::string& name_space, const std::string& name) {
  throw JobNotFound(name_space, name,
                    std::string(": no Job or Service carries the label ") +
                        kOptimizationJobNameLabel + "=" + name +
                        " (what render and submit put on every object of a trial)",
                    "optimizationjob", kOptimizationJobNameLabel);
}

bool watch_sweep_status(KubeClient* client, const Clock& clock, const std::string& name_space,
                        const std::string& name, double interval,
                        const std::function<void(const SweepStatus&)>& on_status) {
  while (true) {
    std::vector<TrialObject> trials = find_sweep_trials(client, name_space, name);
    if (trials.empty()) throw_sweep_not_found(name_space, name);
    SweepStatus status = fetch_sweep_status(client, name_space, name, trials);
    on_status(status);
    JobPhase phase = sweep_phase(status);
    if (phase != JobPhase::kRunning) return phase == JobPhase::kComplete;
    clock.sleep(interval);
  }
}

}  // namespace trainjob
