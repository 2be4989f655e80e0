#include "kube/submit.h"

#include <algorithm>

#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/trainjob_objects.h"
#include "kube/trainjob_status.h"
#include "kube/watcher.h"

namespace trainjob {
namespace {

int apply_rank(const Json& object) {
  std::string kind = string_member(object, "kind");
  // Claims before the Jobs whose pods mount them (volumeClaimPolicies).
  if (kind == "ConfigMap" || kind == "Secret" || kind == "PersistentVolumeClaim") return 0;
  if (kind == "Service") return 1;
  if (kind == "PodGroup") return 2;
  if (kind == "Job") return is_initializer_job(object) ? 3 : 4;
  return 5;
}

std::string resource_version(const Json& object) {
  return string_member(member(object, "metadata"), "resourceVersion");
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "nothing" : out;
}

}  // namespace

std::vector<Json> order_for_apply(std::vector<Json> objects) {
  std::stable_sort(objects.begin(), objects.end(),
                   [](const Json& a, const Json& b) { return apply_rank(a) < apply_rank(b); });
  return objects;
}

void mark_as_submitted(SubmitPlan* plan) {
  std::vector<std::string> kinds;
  for (const Json& object : plan->objects) {
    std::string kind = string_member(object, "apiVersion") + "/" + string_member(object, "kind");
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  std::string recorded;
  for (const std::string& kind : kinds)
    recorded += (recorded.empty() ? "" : ",") + kind;
  for (Json& object : plan->objects) {
    Json& metadata = object["metadata"];
    metadata["labels"][kTrainJobNameLabel] = plan->trainjob;
    metadata["labels"][kCreatedBySubmitLabel] = kCreatedBySubmitValue;
    metadata["annotations"][kSubmittedKindsAnnotation] = recorded;
  }
}

bool is_initializer_job(const Json& object) {
  if (string_member(object, "kind") != "Job") return false;
  std::string step = label_of(object, kReplicatedJobLabel);
  const std::string suffix = "-initializer";
  return step.size() > suffix.size() &&
         step.compare(step.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Submitter::Submitter(KubeClient* client, const Clock* clock, std::FILE* out, std::FILE* err)
    : client_(client), clock_(clock), out_(out), err_(err) {}

bool Submitter::dry_run_all(const SubmitPlan& plan, const SubmitOptions& options, bool* immutable) {
  bool ok = true;
  dry_run_versions_.clear();
  for (const Json& object : plan.objects) {
    ApplyResult result = apply_object(client_, object, plan.name_space, /*dry_run=*/true);
    if (result.ok && !result.created)
      dry_run_versions_[display_name(object)] = resource_version(result.object);
    if (result.ok) {
      if (options.server_dry_run)
        report(object, result.created ? "created (server dry run)" : "configured (server dry run)",
               options);
      continue;
    }
    ok = false;
    if (result.immutable && string_member(object, "kind") == "Job") {
      *immutable = true;
      if (options.replace) continue;  // expected: the Job is deleted and created again
    }
    std::fprintf(err_, "error: %s: %s\n", display_name(object).c_str(), result.error.c_str());
  }
  return ok;
}

bool Submitter::replace_existing(const SubmitPlan& plan, const SubmitOptions& options) {
  std::vector<Json> existing = find_trainjob_objects(client_, plan.name_space, plan.trainjob);
  for (const std::string& name : delete_objects(client_, plan.name_space, existing))
    std::fprintf(out_, "%s deleted (--replace)\n", name.c_str());
  if (!wait_until_gone(client_, *clock_, plan.name_space, plan.trainjob, options.timeout_seconds)) {
    std::fprintf(err_, "error: timed out waiting for the old objects of TrainJob %s to go\n",
                 plan.trainjob.c_str());
    return false;
  }
  return true;
}

bool Submitter::apply_stage(const SubmitPlan& plan, const std::vector<Json>& objects,
                            const SubmitOptions& options, std::vector<Json>* created) {
  std::vector<std::string> applied;
  for (const Json& object : objects) {
    ApplyResult result = apply_object(client_, object, plan.name_space, /*dry_run=*/false);
    if (!result.ok) {
      std::fprintf(err_, "error: applying %s failed: %s\n", display_name(object).c_str(),
                   result.error.c_str());
      std::vector<std::string> made;
      for (const Json& item : *created)
        made.push_back(display_name(item));
      std::fprintf(err_, "created before the failure: %s\n", join(made).c_str());
      if (options.keep_on_error) {
        std::fprintf(err_, "kept (--keep-on-error); `kubectl trainjob delete %s` removes them\n",
                     plan.trainjob.c_str());
      } else {
        roll_back(plan, *created);
      }
      return false;
    }
    // An apply that changes nothing leaves the resourceVersion the dry run saw.
    auto before = dry_run_versions_.find(display_name(object));
    bool unchanged = !result.created && before != dry_run_versions_.end() &&
                     before->second == resource_version(result.object);
    if (result.created) created->push_back(object);
    report(object, result.created ? "created" : unchanged ? "unchanged" : "configured", options);
  }
  std::fflush(out_);
  return true;
}

void Submitter::roll_back(const SubmitPlan& plan, const std::vector<Json>& created) {
  std::vector<Json> reversed(created.rbegin(), created.rend());
  for (const std::string& name : delete_objects(client_, plan.name_space, reversed))
    std::fprintf(err_, "removed %s\n", name.c_str());
}

void Submitter::report(const Json& object, const char* operation, const SubmitOptions& options) {
  if (options.names_only) {
    std::fprintf(out_, "%s\n", display_name(object).c_str());
  } else {
    std::fprintf(out_, "%s %s\n", display_name(object).c_str(), operation);
  }
}

int Submitter::submit(const SubmitPlan& plan, const SubmitOptions& options) {
  bool immutable = false;
  if (!dry_run_all(plan, options, &immutable)) {
    if (immutable && !options.replace) {
      std::fprintf(err_,
                   "error: TrainJob %s was submitted before with different Jobs, and a Job cannot "
                   "change once created; nothing was changed. Use --replace to delete it and "
                   "submit again.\n",
                   plan.trainjob.c_str());
      return 1;
    }
    if (!immutable) return 1;
    if (!replace_existing(plan, options)) return 1;
    immutable = false;
    if (!dry_run_all(plan, options, &immutable)) return 1;
  }
  if (options.server_dry_run) return 0;
  // Waiting, the trainer's Jobs start only once the initializers are done, as dependsOn does.
  std::vector<Json> now, later;
  for (const Json& object : plan.objects) {
    bool deferred = options.wait && string_member(object, "kind") == "Job" &&
                    !is_initializer_job(object) &&
                    std::any_of(plan.objects.begin(), plan.objects.end(), is_initializer_job);
    (deferred ? later : now).push_back(object);
  }
  std::vector<Json> created;
  if (!apply_stage(plan, now, options, &created)) return 1;
  if (!options.wait) return 0;
  return wait_for(plan, later, options);
}

int Submitter::wait_for(const SubmitPlan& plan, const std::vector<Json>& later_jobs,
                        const SubmitOptions& options) {
  TrainJobWatcher watcher(client_, plan.name_space, trainjob_selector(plan.trainjob));
  watcher.start();
  double deadline = clock_->now() + options.timeout_seconds;
  bool later_applied = later_jobs.empty();
  std::string last_phase;
  int seen = 0;
  while (true) {
    double left = options.timeout_seconds > 0 ? deadline - clock_->now() : 3600;
    if (left <= 0) {
      std::fprintf(err_, "error: timed out waiting for TrainJob %s (phase %s)\n",
                   plan.trainjob.c_str(), last_phase.c_str());
      return 1;
    }
    WatchSnapshot snapshot = watcher.wait_newer(seen, std::min(left, 1.0));
    seen = snapshot.version;
    TrainJobStatus status = compute_status(plan.trainjob, snapshot.jobs, snapshot.pods, {});
    if (status.phase == "Failed") {
      // The pods' last state may still be on its way through the other watch: read it now,
      // so the message says why.
      std::vector<Json> pods =
          list_objects(client_, pod_type(), plan.name_space, trainjob_selector(plan.trainjob))
              .items;
      status = compute_status(plan.trainjob, snapshot.jobs, pods, {});
    }
    if (status.phase != last_phase) {
      std::fprintf(out_, "TrainJob %s: %s\n", plan.trainjob.c_str(), status.phase.c_str());
      std::fflush(out_);
      last_phase = status.phase;
    }
    if (status.phase == "Failed") {
      // As JobSet's failure policy: the first failed Job fails it all; the rest are stopped.
      std::vector<Json> siblings;
      for (Json& job : snapshot.jobs) {
        if (job_state(job) != "Failed") {
          job["apiVersion"] = "batch/v1";
          job["kind"] = "Job";
          siblings.push_back(job);
        }
      }
      for (const std::string& name : delete_objects(client_, plan.name_space, siblings))
        std::fprintf(err_, "deleted %s (a sibling Job failed)\n", name.c_str());
      std::fprintf(err_, "error: TrainJob %s failed: %s\n", plan.trainjob.c_str(),
                   status.message.c_str());
      return 1;
    }
    bool jobs_done = !snapshot.jobs.empty() &&
                     std::all_of(snapshot.jobs.begin(), snapshot.jobs.end(),
                                 [](const Json& job) { return job_state(job) == "Complete"; });
    if (jobs_done && !later_applied) {
      std::vector<Json> created;
      if (!apply_stage(plan, later_jobs, options, &created)) return 1;
      later_applied = true;
      continue;
    }
    if (jobs_done && later_applied) {
      size_t expected = static_cast<size_t>(
          std::count_if(plan.objects.begin(), plan.objects.end(),
                        [](const Json& object) { return string_member(object, "kind") == "Job"; }));
      if (snapshot.jobs.size() >= expected) return 0;
    }
  }
}

}  // namespace trainjob
