// `submit --wait`: the JobSet controller's part done from the client. Jobs with dependsOn
// start when what they depend on got there, the successPolicy ends the TrainJob, the first
// failed Job fails it, and the TrainJob's activeDeadlineSeconds counts for all its stages.
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "cluster/job_restart.h"
#include "cluster/stall_deadline.h"
#include "cluster/submit.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/watcher.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "status/cluster_output.h"
#include "status/restart_attempt.h"
#include "status/status_output.h"
#include "status/trainjob_objects.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

const Json* find_by_name(const std::vector<Json>& jobs, const std::string& name) {
  for (const Json& job : jobs)
    if (name_of(job) == name) return &job;
  return nullptr;
}

bool finished_job(const Json& job) {
  return job_phase_finished(job_state(job));
}

size_t planned_job_count(const SubmitPlan& plan) {
  return static_cast<size_t>(
      std::count_if(plan.objects.begin(), plan.objects.end(),
                    [](const Json& object) { return string_member(object, "kind") == "Job"; }));
}

/// Every planned Job exists and is complete, and none waits to be started.
bool all_jobs_complete(const SubmitPlan& plan, const std::vector<Json>& live,
                       const std::vector<Json>& later) {
  return !live.empty() && later.empty() && live.size() >= planned_job_count(plan) &&
         std::all_of(live.begin(), live.end(),
                     [](const Json& job) { return job_state(job) == JobPhase::kComplete; });
}

/// The TrainJob's status from what the watch holds; `done` when the success policy is met or
/// every Job is complete.
TrainJobStatus watched_status(KubeClient* client, const SubmitPlan& plan,
                              const WatchSnapshot& snapshot, bool done) {
  TrainJobStatus status = compute_status(plan.trainjob, snapshot.jobs, snapshot.pods, {});
  if (status.phase == JobPhase::kFailed) {
    // The pods' last state may still be on its way through the other watch: read it now,
    // so the message says why.
    std::vector<Json> pods =
        list_objects(client, pod_type(), plan.name_space, trainjob_selector(plan.trainjob)).items;
    status = compute_status(plan.trainjob, snapshot.jobs, pods, {});
  }
  // Between stages every Job there may be complete; the TrainJob is not.
  if (status.phase == JobPhase::kComplete && !done) status.phase = JobPhase::kRunning;
  return status;
}

/// What the wait has printed so far, and since when each pod has stood still.
struct WaitReport {
  std::optional<JobPhase> phase;  ///< none printed yet
  std::string phase_text;
  std::set<std::string> reasons_said;  ///< pods whose first reason was printed
  StallWatch stalls;
};

/// Prints the phase when it changed (never back from Running to Pending), and the first
/// reason each pod gives for being stuck or failed, as `status` shows it.
void report_wait_state(std::FILE* out, const SubmitPlan& plan, TrainJobStatus* status,
                       WaitReport* report) {
  status->phase = forward_phase(report->phase, status->phase);
  report->phase = status->phase;
  std::string text = phase_text(*status);
  if (text != report->phase_text) {
    std::fprintf(out, "%s %s: %s\n", plan.kind.c_str(), plan.trainjob.c_str(),
                 painted_phase(text, out).c_str());
    report->phase_text = text;
  }
  for (const NodeStatus& node : status->nodes) {
    if (node.reason.empty() || node.pod.empty() || node.phase == JobPhase::kStopped) continue;
    if (!report->reasons_said.insert(node.pod).second) continue;
    std::fprintf(out, "  %s (pod %s): %s\n", node.label.c_str(), node.pod.c_str(),
                 node.reason.c_str());
  }
  std::fflush(out);
}

int report_timeout(std::FILE* err, const SubmitPlan& plan, std::optional<JobPhase> last) {
  std::fprintf(err, "error: timed out waiting for %s %s (phase %s)\n", plan.kind.c_str(),
               plan.trainjob.c_str(), last ? job_phase_name(*last) : "");
  return 1;
}

int report_stalled(std::FILE* err, const SubmitPlan& plan, const std::vector<NodeStatus>& stuck,
                   double deadline) {
  std::fprintf(err,
               "error: %s %s made no progress for %.0f s: %s\n"
               "  it is left as it is: `kubectl trainjob delete %s` removes it; "
               "--progress-deadline sets how long a pod may stay Pending (0: no limit)\n",
               plan.kind.c_str(), plan.trainjob.c_str(), deadline, describe_stalled(stuck).c_str(),
               plan.trainjob.c_str());
  return 1;
}

/// A legacy kind's Jobs follow the Training Operator's rules; a TrainJob's follow JobSet's.
bool legacy_kind(const SubmitPlan& plan) {
  return plan.kind != "TrainJob";
}

std::string clean_pod_policy_of(const SubmitPlan& plan) {
  for (const Json& object : plan.objects) {
    std::string policy = annotation_of(object, kCleanPodPolicyAnnotation);
    if (!policy.empty()) return policy;
  }
  return "None";
}

/// Marks the Job as stopped by `policy` and, if it still runs, suspends it: the Job
/// controller then deletes its pods, and the Job stays as the record of that node.
void stop_by_policy(KubeClient* client, const std::string& name_space, const Json& job,
                    const std::string& policy) {
  Json patch = {{"metadata", {{"annotations", {{kStoppedByAnnotation, policy}}}}}};
  if (!finished_job(job)) patch["spec"] = {{"suspend", true}};
  std::string path =
      object_path(job_type(), name_space, name_of(job)) + "?fieldManager=" + kFieldManager;
  client->call("PATCH", path, patch.dump(), "application/merge-patch+json");
}

/// The pods of a finished Job, deleted for cleanPodPolicy All.
void delete_finished_pods(KubeClient* client, const std::string& name_space, const Json& job) {
  std::string selector = url_escape(std::string(kJobNameLabel) + "=" + name_of(job));
  for (const Json& pod : list_objects(client, pod_type(), name_space, selector).items)
    delete_object(client, pod_type(), name_space, name_of(pod));
}

}  // namespace

void Submitter::apply_clean_pod_policy(const SubmitPlan& plan, const std::vector<Json>& live) {
  std::string policy = clean_pod_policy_of(plan);
  for (const Json& job : live) {
    bool running = !finished_job(job);
    if (policy == "None") {
      if (running)
        std::fprintf(out_, "job.batch/%s left running (cleanPodPolicy None)\n",
                     name_of(job).c_str());
      continue;
    }
    if (!running && policy != "All") continue;
    stop_by_policy(client_, plan.name_space, job, policy);
    if (!running) delete_finished_pods(client_, plan.name_space, job);
    std::fprintf(out_, "job.batch/%s %s (cleanPodPolicy %s)\n", name_of(job).c_str(),
                 running ? "stopped" : "pods deleted", policy.c_str());
  }
  std::fflush(out_);
}

void Submitter::stop_jobs(const SubmitPlan& plan, std::vector<Json> live, const char* why) {
  std::vector<Json> running;
  for (Json& job : live) {
    if (finished_job(job)) continue;
    job["apiVersion"] = kBatchApiVersion;  // watch events may leave them out
    job["kind"] = "Job";
    running.push_back(std::move(job));
  }
  for (const std::string& name : delete_objects(client_, plan.name_space, running))
    std::fprintf(err_, "deleted %s (%s)\n", name.c_str(), why);
}

void Submitter::stop_non_targets(const SubmitPlan& plan, const SuccessPolicy& policy,
                                 const std::vector<Json>& live) {
  std::vector<Json> rest;
  for (const Json& job : live)
    if (!policy.targets_job(job) && !finished_job(job)) rest.push_back(job);
  for (Json& job : rest) {
    job["apiVersion"] = kBatchApiVersion;
    job["kind"] = "Job";
  }
  // Background propagation: their pods (sshd on the MPI nodes, say) go with them.
  for (const std::string& name : delete_objects(client_, plan.name_space, rest))
    std::fprintf(out_, "%s deleted (the success policy is met)\n", name.c_str());
  std::fflush(out_);
}

bool Submitter::give_deadline_left(const SubmitPlan& plan, const std::vector<Json>& live,
                                   double elapsed, Json* job) {
  Json& spec = (*job)["spec"];
  if (const Json* existing = find_by_name(live, name_of(*job))) {
    // Submitted before: keep the deadline it was given then, so the apply changes nothing.
    const Json& live_spec = member_or_empty(*existing, "spec");
    if (live_spec.contains("activeDeadlineSeconds"))
      spec["activeDeadlineSeconds"] = live_spec["activeDeadlineSeconds"];
    return true;
  }
  if (!spec.contains("activeDeadlineSeconds") || !spec["activeDeadlineSeconds"].is_number())
    return true;
  // activeDeadlineSeconds is the whole TrainJob's: a later stage gets what is left of it.
  double left = spec["activeDeadlineSeconds"].get<double>() - elapsed;
  if (left < 1) {
    std::fprintf(out_, "%s %s: Failed\n", plan.kind.c_str(), plan.trainjob.c_str());
    stop_jobs(plan, live, "the TrainJob's deadline passed");
    std::fprintf(err_,
                 "error: %s %s failed: DeadlineExceeded: activeDeadlineSeconds (%s s) "
                 "passed before Job %s could start\n",
                 plan.kind.c_str(), plan.trainjob.c_str(),
                 spec["activeDeadlineSeconds"].dump().c_str(), name_of(*job).c_str());
    return false;
  }
  spec["activeDeadlineSeconds"] = static_cast<int64_t>(std::floor(left));
  return true;
}

bool Submitter::start_ready_jobs(const SubmitPlan& plan, const std::vector<Json>& live,
                                 std::vector<Json>* later, const SubmitOptions& options) {
  std::vector<Json> ready, waiting;
  for (Json& job : *later)
    (dependencies_met(job, plan.objects, live) ? ready : waiting).push_back(std::move(job));
  *later = std::move(waiting);
  double elapsed = clock_->now() - first_stage_at_;
  for (Json& job : ready) {
    if (!give_deadline_left(plan, live, elapsed, &job)) return false;
  }
  if (ready.empty()) return true;
  std::vector<Json> created;
  return apply_stage(plan, ready, options, &created);
}

int Submitter::wait_for(const SubmitPlan& plan, const std::vector<Json>& later_jobs,
                        const SubmitOptions& options) {
  TrainJobWatcher watcher(client_, plan.name_space, trainjob_selector(plan.trainjob));
  watcher.start();
  double deadline = clock_->now() + options.timeout_seconds;
  std::vector<Json> later = later_jobs;
  std::optional<SuccessPolicy> policy = success_policy_of(plan.objects);
  WaitReport report;
  int seen = 0;
  int attempt = 0;  // the restart attempt running: older Jobs and pods are on their way out
  while (true) {
    double left = options.timeout_seconds > 0 ? deadline - clock_->now() : 3600;
    if (left <= 0) return report_timeout(err_, plan, report.phase);
    WatchSnapshot snapshot = watcher.wait_newer(seen, std::min(left, 1.0));
    seen = snapshot.version;
    drop_older_attempts(attempt, &snapshot.jobs);
    drop_older_attempts(attempt, &snapshot.pods);
    bool policy_met = policy && success_policy_met(*policy, snapshot.jobs);
    bool all_done = all_jobs_complete(plan, snapshot.jobs, later);
    TrainJobStatus status = watched_status(client_, plan, snapshot, policy_met || all_done);
    if (status.phase == JobPhase::kFailed && !legacy_kind(plan) &&
        restart_budget_of(snapshot.jobs).restarts_left()) {
      // Not Failed yet: JobSet restarts it (the line says why).
      if (!restart_all(plan, snapshot.jobs, status, &later, options)) return 1;
      attempt = restart_budget_of(snapshot.jobs).attempt + 1;
      report.phase.reset();  // the new attempt starts from Pending
      continue;
    }
    report_wait_state(out_, plan, &status, &report);
    if (status.phase == JobPhase::kFailed) return fail_wait(plan, snapshot.jobs, status);
    if (policy_met || all_done) {
      // The operator applies cleanPodPolicy once the job finished; JobSet stops the Jobs
      // its success policy does not target.
      if (legacy_kind(plan))
        apply_clean_pod_policy(plan, snapshot.jobs);
      else if (policy_met)
        stop_non_targets(plan, *policy, snapshot.jobs);
      return 0;
    }
    std::vector<NodeStatus> stuck =
        report.stalls.stalled(status.nodes, clock_->now(), options.progress_deadline_seconds);
    if (!stuck.empty()) return report_stalled(err_, plan, stuck, options.progress_deadline_seconds);
    if (!start_ready_jobs(plan, snapshot.jobs, &later, options)) return 1;
  }
}

bool Submitter::restart_all(const SubmitPlan& plan, const std::vector<Json>& live,
                            const TrainJobStatus& failed, std::vector<Json>* later,
                            const SubmitOptions& options) {
  RestartBudget budget = restart_budget_of(live);
  int attempt = budget.attempt + 1;
  std::fprintf(
      out_, "%s\n",
      restart_line(plan.kind, plan.trainjob, attempt, budget.max_restarts, failure_cause(failed))
          .c_str());
  std::fflush(out_);
  std::string error = delete_jobs_and_wait(client_, *clock_, plan.name_space, plan.trainjob, live);
  if (!error.empty()) {
    std::fprintf(err_, "error: restarting %s %s: %s\n", plan.kind.c_str(), plan.trainjob.c_str(),
                 error.c_str());
    return false;
  }
  std::vector<Json> now;
  later->clear();
  for (const Json& object : plan.objects) {
    if (string_member(object, "kind") != "Job") continue;
    Json job = job_for_attempt(object, attempt);
    bool waits = !dependencies_met(job, plan.objects, {});
    (waits ? *later : now).push_back(std::move(job));
  }
  first_stage_at_ = clock_->now();  // each attempt has the whole activeDeadlineSeconds
  std::vector<Json> created;
  return apply_stage(plan, now, options, &created);
}

int Submitter::fail_wait(const SubmitPlan& plan, const std::vector<Json>& live,
                         const TrainJobStatus& status) {
  // JobSet's failure policy: the first failed Job fails it all, the rest are stopped; the
  // operator applies cleanPodPolicy to a failed job as to a succeeded one.
  if (legacy_kind(plan)) {
    apply_clean_pod_policy(plan, live);
  } else {
    stop_jobs(plan, live, "a sibling Job failed");
  }
  RestartBudget budget = restart_budget_of(live);
  std::string after = budget.max_restarts == 0
                          ? ""
                          : " after " + restarts_text(budget.attempt) +
                                " (ReachedMaxRestarts: failurePolicy.maxRestarts " +
                                std::to_string(budget.max_restarts) + ")";
  std::fprintf(err_, "error: %s %s failed%s: %s\n", plan.kind.c_str(), plan.trainjob.c_str(),
               after.c_str(), status.message.c_str());
  std::string cause = failure_cause(status);
  if (cause != status.message) std::fprintf(err_, "  failed %s\n", cause.c_str());
  return 1;
}

}  // namespace trainjob
