#include "cluster/job_wait.h"

#include <algorithm>
#include <optional>

#include "cluster/job_restart.h"
#include "kube/resources.h"
#include "kube/watcher.h"
#include "status/job_not_found.h"
#include "status/restart_attempt.h"
#include "status/status_output.h"
#include "status/status_query.h"
#include "status/trainjob_objects.h"

namespace trainjob {
namespace {

/// The seconds a watch waits at most before the deadline is looked at again.
constexpr double kWatchSlice = 30;

std::string met(const TrainJobStatus& status) {
  return wait_object_name(status) + " condition met";
}

std::string condition_text(const WaitCondition& condition) {
  if (condition.kind == WaitCondition::Kind::kJsonPath)
    return condition.jsonpath + (condition.value ? "=" + *condition.value : "");
  return condition.status == "True" ? condition.type : condition.type + "=" + condition.status;
}

/// The result once `status` decides it; nullopt while it may still come.
std::optional<WaitResult> decided(const WaitCondition& condition, const TrainJobStatus& status,
                                  const std::string& name_space) {
  switch (check_wait(condition, status, status_json(status, name_space))) {
    case WaitCheck::kMet:
      return WaitResult{0, met(status), ""};
    case WaitCheck::kNever: {
      std::string why = status.message.empty() ? "" : " (" + status.message + ")";
      return WaitResult{1, "",
                        "error: " + status.kind + " " + status.name + " is " +
                            job_phase_name(status.phase) + why + ": it will never be " +
                            condition_text(condition)};
    }
    case WaitCheck::kNotYet:
      break;
  }
  return std::nullopt;
}

WaitResult timed_out(const std::optional<TrainJobStatus>& status, const std::string& name) {
  std::string on = status ? wait_resource_name(*status) : "trainjobs/" + name;
  return WaitResult{1, "", "error: timed out waiting for the condition on " + on};
}

WaitResult wait_for_delete(KubeClient* client, const Clock& clock, const std::string& name_space,
                           const std::string& name, double timeout_seconds) {
  std::optional<TrainJobStatus> status = fetch_status_if_trainjob(client, name_space, name);
  if (!status) return WaitResult{};  // as kubectl: nothing there, nothing to wait for
  // wait_until_gone: 0 is no limit; here a negative timeout is, and 0 looks once.
  if (timeout_seconds == 0) return timed_out(status, name);
  bool gone = wait_until_gone(client, clock, name_space, name, std::max(timeout_seconds, 0.0));
  return gone ? WaitResult{0, met(*status), ""} : timed_out(status, name);
}

/// wait --restart's restart: the line first, then the Jobs deleted and created again; empty
/// when done, else the error to end the wait with.
std::string restart(KubeClient* client, const Clock& clock, const std::string& name_space,
                    const TrainJobStatus& failed, const std::vector<Json>& jobs,
                    const std::function<void(const std::string&)>& on_restart) {
  RestartBudget budget = restart_budget_of(jobs);
  on_restart(restart_line(failed.kind, failed.name, budget.attempt + 1, budget.max_restarts,
                          failure_cause(failed)));
  std::string error =
      recreate_jobs(client, clock, name_space, failed.name, jobs, budget.attempt + 1);
  if (error.empty()) return "";
  return "error: restarting " + failed.kind + " " + failed.name + ": " + error;
}

}  // namespace

WaitResult wait_for_trainjob(KubeClient* client, const Clock& clock, const std::string& name_space,
                             const std::string& name, const WaitCondition& condition,
                             double timeout_seconds,
                             const std::function<void(const std::string&)>& on_restart) {
  if (condition.kind == WaitCondition::Kind::kDelete)
    return wait_for_delete(client, clock, name_space, name, timeout_seconds);
  bool create = condition.kind == WaitCondition::Kind::kCreate;
  std::optional<TrainJobStatus> status = fetch_status_if_trainjob(client, name_space, name);
  if (!status && !create) throw JobNotFound(name_space, name);
  // With --restart a failed TrainJob may still be restarted: the watch's first look decides.
  if (status && !on_restart)
    if (std::optional<WaitResult> result = decided(condition, *status, name_space)) return *result;
  double deadline = clock.now() + timeout_seconds;
  TrainJobWatcher watcher(client, name_space, trainjob_selector(name));
  watcher.start();
  int seen = 0;
  int attempt = 0;  // the restart attempt running: older Jobs and pods are on their way out
  while (true) {
    double left = deadline - clock.now();
    if (timeout_seconds >= 0 && left <= 0) return timed_out(status, name);
    WatchSnapshot snapshot = watcher.wait_newer(seen, timeout_seconds < 0 ? kWatchSlice : left);
    if (snapshot.version == seen) continue;
    seen = snapshot.version;
    drop_older_attempts(attempt, &snapshot.jobs);
    drop_older_attempts(attempt, &snapshot.pods);
    if (snapshot.jobs.empty() && !trainjob_exists(client, name_space, name)) {
      if (create) continue;
      throw JobNotFound(name_space, name);  // deleted while we waited
    }
    status = status_from(client, name_space, name, snapshot.jobs, snapshot.pods);
    if (on_restart && status->phase == JobPhase::kFailed &&
        restart_budget_of(snapshot.jobs).restarts_left()) {
      std::string error = restart(client, clock, name_space, *status, snapshot.jobs, on_restart);
      if (!error.empty()) return WaitResult{1, "", error};
      attempt = restart_budget_of(snapshot.jobs).attempt + 1;
      continue;
    }
    if (std::optional<WaitResult> result = decided(condition, *status, name_space)) return *result;
  }
}

}  // namespace trainjob
