// `submit --wait`: the JobSet controller's part done from the client. Jobs with dependsOn
// start when what they depend on got there, the successPolicy ends the TrainJob, the first
// failed Job fails it, and the TrainJob's activeDeadlineSeconds counts for all its stages.
#include <algorithm>
#include <cmath>
#include <optional>

#include "cluster/cluster_output.h"
#include "cluster/submit.h"
#include "cluster/trainjob_objects.h"
#include "cluster/trainjob_status.h"
#include "kube/objects.h"
#include "kube/watcher.h"

namespace trainjob {
namespace {

const Json* find_by_name(const std::vector<Json>& jobs, const std::string& name) {
  for (const Json& job : jobs)
    if (name_of(job) == name) return &job;
  return nullptr;
}

bool finished(const Json& job) {
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

/// Prints the phase when it is not the one printed last.
void report_phase(std::FILE* out, const SubmitPlan& plan, JobPhase phase,
                  std::optional<JobPhase>* last) {
  if (*last == phase) return;
  std::fprintf(out, "%s %s: %s\n", plan.kind.c_str(), plan.trainjob.c_str(),
               painted_phase(job_phase_name(phase), out).c_str());
  std::fflush(out);
  *last = phase;
}

int report_timeout(std::FILE* err, const SubmitPlan& plan, std::optional<JobPhase> last) {
  std::fprintf(err, "error: timed out waiting for %s %s (phase %s)\n", plan.kind.c_str(),
               plan.trainjob.c_str(), last ? job_phase_name(*last) : "");
  return 1;
}

}  // namespace

void Submitter::stop_jobs(const SubmitPlan& plan, std::vector<Json> live, const char* why) {
  std::vector<Json> running;
  for (Json& job : live) {
    if (finished(job)) continue;
    job["apiVersion"] = "batch/v1";  // watch events may leave them out
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
    if (!policy.targets_job(job) && !finished(job)) rest.push_back(job);
  for (Json& job : rest) {
    job["apiVersion"] = "batch/v1";
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
  std::optional<JobPhase> last_phase;  // none printed yet
  int seen = 0;
  while (true) {
    double left = options.timeout_seconds > 0 ? deadline - clock_->now() : 3600;
    if (left <= 0) return report_timeout(err_, plan, last_phase);
    WatchSnapshot snapshot = watcher.wait_newer(seen, std::min(left, 1.0));
    seen = snapshot.version;
    bool policy_met = policy && success_policy_met(*policy, snapshot.jobs);
    bool all_done = all_jobs_complete(plan, snapshot.jobs, later);
    TrainJobStatus status = watched_status(client_, plan, snapshot, policy_met || all_done);
    report_phase(out_, plan, status.phase, &last_phase);
    if (status.phase == JobPhase::kFailed) {
      // As JobSet's failure policy: the first failed Job fails it all; the rest are stopped.
      stop_jobs(plan, snapshot.jobs, "a sibling Job failed");
      std::fprintf(err_, "error: %s %s failed: %s\n", plan.kind.c_str(), plan.trainjob.c_str(),
                   status.message.c_str());
      return 1;
    }
    if (policy_met) {
      stop_non_targets(plan, *policy, snapshot.jobs);
      return 0;
    }
    if (all_done) return 0;
    if (!start_ready_jobs(plan, snapshot.jobs, &later, options)) return 1;
  }
}

}  // namespace trainjob
