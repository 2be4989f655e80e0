#include "cluster/submit.h"

#include <algorithm>
#include <optional>

#include "cluster/job_restart.h"
#include "cluster/submit_scheduling.h"
#include "kube/api_status.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/watcher.h"
#include "model/vocabulary.h"
#include "status/trainjob_objects.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// How long --replace and --rerun wait for the old objects and their pods to go.
constexpr double kOldObjectsGoneSeconds = 120;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "nothing" : out;
}

/// Whether the TrainJob's Jobs are suspended with no Kueue queue to admit them: only
/// `kubectl trainjob resume` starts them.
bool waits_for_manual_resume(const SubmitPlan& plan) {
  for (const Json& object : plan.objects) {
    if (string_member(object, "kind") != "Job") continue;
    return member_or_empty(object, "spec").value("suspend", false) &&
           label_of(object, kKueueQueueLabel).empty();
  }
  return false;
}

/// The objects to apply now, and the Jobs to start later: when `staged`, a Job with
/// dependsOn starts only once what it depends on got there, as JobSet does.
void split_stages(const SubmitPlan& plan, bool staged, std::vector<Json>* now,
                  std::vector<Json>* later) {
  for (const Json& object : plan.objects) {
    bool deferred = staged && string_member(object, "kind") == "Job" &&
                    !dependencies_met(object, plan.objects, {});
    (deferred ? later : now)->push_back(object);
  }
}

}  // namespace

Submitter::Submitter(KubeClient* client, const Clock* clock, std::FILE* out, std::FILE* err)
    : client_(client), clock_(clock), out_(out), err_(err) {}

std::string Submitter::dry_run_operation(const Json& object, const ApplyResult& result) const {
  if (result.created) return "created (server dry run)";
  auto foreign = foreign_.find(display_name(object));
  if (foreign == foreign_.end()) return "configured (server dry run)";
  return (foreign->second.fields.empty() ? "unchanged (server dry run; it "
                                         : "configured (server dry run; it ") +
         foreign->second.why + ": delete leaves it)";
}

std::optional<Json> Submitter::read_existing(const SubmitPlan& plan, const Json& object,
                                             const SubmitOptions& options, ApplyResult* result) {
  if (!(result->ok && !result->created) && result->status != 409 && !result->immutable)
    return std::nullopt;
  std::optional<Json> live =
      get_object(client_, resource_type_of(object), plan.name_space, name_of(object));
  if (!live) return std::nullopt;
  live_[display_name(object)] = *live;
  // Never take over what submit did not create for this TrainJob.
  std::optional<ForeignObject> foreign =
      check_foreign(client_, object, plan.name_space, plan.trainjob, *live, result);
  if (!foreign) return live;
  refuse_unless_forced(*foreign, options.force_conflicts, result);
  foreign_[display_name(object)] = std::move(*foreign);
  return live;
}

bool Submitter::dry_run_all(const SubmitPlan& plan, const SubmitOptions& options,
                            std::vector<std::string>* immutable) {
  bool ok = true;
  live_.clear();
  foreign_.clear();
  existing_jobs_ = finished_jobs_ = running_jobs_ = 0;
  for (const Json& object : plan.objects) {
    if (kept_as_is(plan, object, options, /*dry_run=*/true)) continue;
    ApplyResult result = apply_planned(plan, object, options, /*dry_run=*/true);
    std::optional<Json> live = read_existing(plan, object, options, &result);
    if (result.status == 409 && string_member(object, "kind") == "Job" &&
        foreign_.count(display_name(object)) == 0) {
      // A Job that cleanPodPolicy stopped: our merge patch owns its spec.suspend, which the
      // apply would take back. Finished, it is left as it is (run_again): no conflict then.
      if (live && job_phase_finished(job_state(*live))) {
        result = ApplyResult();
        result.ok = true;
        result.object = std::move(*live);
      }
    }
    if (std::string refusal = gang_scheduling_refusal(object, result); !refusal.empty()) {
      std::fprintf(err_, "error: %s: %s\n", display_name(object).c_str(), refusal.c_str());
      ok = false;
      continue;
    }
    if (result.ok && !result.created && string_member(object, "kind") == "Job") {
      // The dry run answers with the live Job, status included: no request of its own.
      ++existing_jobs_;
      JobPhase state = job_state(result.object);
      if (job_phase_finished(state)) ++finished_jobs_;
      if (!job_phase_finished(state) && state != JobPhase::kSuspended) ++running_jobs_;
    }
    if (result.ok) {
      if (options.server_dry_run)
        report(object, dry_run_operation(object, result).c_str(), options);
      continue;
    }
    ok = false;
    if (result.immutable && string_member(object, "kind") == "Job") {
      // Expected with --replace; without, dry_run_or_replace says so in one line.
      immutable->push_back(display_name(object));
      continue;
    }
    if (result.namespace_missing) {
      // Every object would say the same: once is enough.
      std::fprintf(err_,
                   "error: %s: nothing was applied; `kubectl create namespace %s` creates it\n",
                   result.error.c_str(), plan.name_space.c_str());
      break;
    }
    std::fprintf(err_, "error: %s: %s\n", display_name(object).c_str(), result.error.c_str());
    // The authorizer's Forbidden is about the user's rights, not the object: the first names
    // the verb and resource missing, and the objects after it would only repeat it.
    if (result.status == 403 && authorizer_denied(result.error)) break;
  }
  return ok;
}

bool Submitter::replace_existing(const SubmitPlan& plan, const char* flag) {
  std::vector<Json> existing = find_trainjob_objects(client_, plan.name_space, plan.trainjob);
  for (const std::string& name : delete_objects(client_, plan.name_space, existing))
    std::fprintf(out_, "%s deleted (%s)\n", name.c_str(), flag);
  std::fflush(out_);
  // As kubectl replace --force: the new objects are created once the old ones and their pods
  // are gone (a Job of the same name cannot be created while the old one is being deleted).
  if (!wait_until_gone(client_, *clock_, plan.name_space, plan.trainjob, kOldObjectsGoneSeconds)) {
    std::fprintf(err_,
                 "error: the old objects of %s %s were not gone after %.0f s (%s); nothing new "
                 "was created: see `kubectl trainjob status %s`, then submit again\n",
                 plan.kind.c_str(), plan.trainjob.c_str(), kOldObjectsGoneSeconds, flag,
                 plan.trainjob.c_str());
    return false;
  }
  return true;
}

bool Submitter::apply_stage(const SubmitPlan& plan, const std::vector<Json>& objects,
                            const SubmitOptions& options, std::vector<Json>* created) {
  std::vector<std::string> applied;
  for (const Json& object : objects) {
    if (kept_as_is(plan, object, options, /*dry_run=*/false)) continue;
    auto foreign = foreign_.find(display_name(object));
    if (foreign != foreign_.end() && foreign->second.fields.empty()) {
      // Applying would only make us a manager of fields it already has.
      report(object, ("unchanged (it " + foreign->second.why + ": delete leaves it)").c_str(),
             options);
      continue;
    }
    ApplyResult result = apply_planned(plan, object, options, /*dry_run=*/false);
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
    // Unchanged: what the apply answers is the object as it was read after its dry run, but
    // for what the server keeps (a Job's status moves on meanwhile).
    auto before = live_.find(display_name(object));
    bool unchanged = !result.created && before != live_.end() &&
                     changed_fields(before->second, result.object).empty();
    if (result.created) created->push_back(object);
    std::string kind = string_member(object, "kind");
    if (kind == "Job" && member_or_empty(result.object, "spec").value("suspend", false))
      server_suspended_.insert(display_name(object));
    if (!result.created && !unchanged && (kind == "ConfigMap" || kind == "Secret"))
      changed_inputs_.push_back(display_name(object));
    if (foreign != foreign_.end()) {
      report(object,
             ("configured (--force-conflicts; it " + foreign->second.why + ": delete leaves it)")
                 .c_str(),
             options);
      continue;
    }
    report(object, result.created ? "created" : unchanged ? "unchanged" : "configured", options);
  }
  std::fflush(out_);
  return true;
}

ApplyResult Submitter::apply_planned(const SubmitPlan& plan, const Json& object,
                                     const SubmitOptions& options, bool dry_run) {
  auto foreign = foreign_.find(display_name(object));
  if (foreign != foreign_.end())
    return apply_object(client_, with_marks_of(object, foreign->second.live), plan.name_space,
                        dry_run, /*force=*/true);
  return apply_object(client_, object, plan.name_space, dry_run, options.force_conflicts);
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

bool Submitter::kept_as_is(const SubmitPlan& plan, const Json& object, const SubmitOptions& options,
                           bool dry_run) {
  if (string_member(member_or_empty(member_or_empty(object, "metadata"), "annotations"),
                    kCreateOnlyIfAbsentAnnotation) != "true")
    return false;
  // Like upstream's SSH Secret: made once, never overwritten (pods may hold the old key).
  if (!get_object(client_, resource_type_of(object), plan.name_space, name_of(object)))
    return false;
  if (!dry_run || options.server_dry_run)
    report(object,
           dry_run ? "exists, kept (server dry run)" : "exists, kept (created only if absent)",
           options);
  return true;
}

bool Submitter::report_suspended(const SubmitPlan& plan, const SubmitOptions& options) {
  std::vector<const Json*> jobs;
  for (const Json& object : plan.objects)
    if (string_member(object, "kind") == "Job") jobs.push_back(&object);
  bool suspended = !jobs.empty() && std::all_of(jobs.begin(), jobs.end(), [&](const Json* job) {
    return member_or_empty(*job, "spec").value("suspend", false) ||
           server_suspended_.count(display_name(*job)) != 0;
  });
  if (!suspended) return false;
  std::FILE* to = options.names_only ? err_ : out_;  // -o name: stdout holds names only
  std::string queue = label_of(*jobs[0], kKueueQueueLabel);
  if (!queue.empty()) {
    std::fprintf(to, "%s %s: suspended, waiting for Kueue admission in queue %s\n",
                 plan.kind.c_str(), plan.trainjob.c_str(), queue.c_str());
  } else {
    std::fprintf(to, "%s %s: suspended; `kubectl trainjob resume %s` starts it\n",
                 plan.kind.c_str(), plan.trainjob.c_str(), plan.trainjob.c_str());
  }
  std::fflush(to);
  return true;
}

void Submitter::skip_finished_by_policy(const SubmitPlan& plan, std::vector<Json>* objects,
                                        const SubmitOptions& options) {
  std::optional<SuccessPolicy> policy = success_policy_of(plan.objects);
  if (!policy) return;
  std::vector<Json> live =
      list_objects(client_, job_type(), plan.name_space, submitted_selector(plan.trainjob)).items;
  if (!success_policy_met(*policy, live)) return;
  // Its success deleted the Jobs it does not target (MPI nodes): creating them again would
  // start pods that nothing ends.
  std::vector<Json> kept;
  for (Json& object : *objects) {
    bool gone = string_member(object, "kind") == "Job" &&
                std::none_of(live.begin(), live.end(),
                             [&](const Json& job) { return name_of(job) == name_of(object); });
    if (!gone) {
      kept.push_back(std::move(object));
    } else if (!options.names_only) {
      std::fprintf(out_, "%s not created again (the TrainJob's success policy is met)\n",
                   display_name(object).c_str());
    }
  }
  *objects = std::move(kept);
}

bool Submitter::dry_run_or_replace(const SubmitPlan& plan, const SubmitOptions& options) {
  std::vector<std::string> immutable;
  bool ok = dry_run_all(plan, options, &immutable);
  if (!immutable.empty() && !options.replace) {
    std::fprintf(err_,
                 "error: %s %s: %s %s submitted before with a different spec, and Jobs are "
                 "immutable: use --replace to delete and recreate them (nothing was changed)\n",
                 plan.kind.c_str(), plan.trainjob.c_str(), join(immutable).c_str(),
                 immutable.size() == 1 ? "was" : "were");
    return false;
  }
  if (ok || immutable.empty()) return ok;
  if (!replace_existing(plan, "--replace")) return false;
  immutable.clear();
  return dry_run_all(plan, options, &immutable);
}

namespace {

void erase_jobs(std::vector<Json>* objects) {
  objects->erase(
      std::remove_if(objects->begin(), objects->end(),
                     [](const Json& object) { return string_member(object, "kind") == "Job"; }),
      objects->end());
}

}  // namespace

bool Submitter::run_again(const SubmitPlan& plan, const SubmitOptions& options, bool* finished) {
  *finished = false;
  if (options.rerun) return true;  // deleted before the dry run
  if (existing_jobs_ == 0 || finished_jobs_ < existing_jobs_) return true;
  if (!options.replace) {
    *finished = true;  // applying changes nothing that runs: said after the apply
    return true;
  }
  if (!replace_existing(plan, "--replace")) return false;
  std::vector<std::string> immutable;
  return dry_run_all(plan, options, &immutable);
}

void Submitter::report_finished(const SubmitPlan& plan, const SubmitOptions& options) {
  std::FILE* to = options.names_only ? err_ : out_;  // -o name: stdout holds names only
  std::fprintf(to,
               "%s %s: its Jobs have finished and are left as they are; "
               "`kubectl trainjob submit --rerun` (or --replace) deletes and recreates them\n",
               plan.kind.c_str(), plan.trainjob.c_str());
  std::fflush(to);
}

void Submitter::report_running_changed(const SubmitPlan& plan, const SubmitOptions& options) {
  if (running_jobs_ == 0 || changed_inputs_.empty()) return;
  std::FILE* to = options.names_only ? err_ : out_;  // -o name: stdout holds names only
  std::fprintf(to,
               "%s %s: its Jobs are running and are left as they are: their pods keep what they "
               "read of %s when they started, and a pod started again would read the new one; "
               "`kubectl trainjob submit --rerun` deletes and recreates them to run it\n",
               plan.kind.c_str(), plan.trainjob.c_str(), join(changed_inputs_).c_str());
  std::fflush(to);
}

int Submitter::submit(const SubmitPlan& planned, const SubmitOptions& options) {
  SubmitPlan plan = options.rerun ? planned : at_live_restart_attempt(client_, planned);
  if (options.rerun && !options.server_dry_run && !replace_existing(plan, "--rerun")) return 1;
  if (!dry_run_or_replace(plan, options)) return 1;
  warn_unfit_gangs(client_, plan.objects, err_);
  if (options.server_dry_run) return 0;
  bool finished = false;
  if (!run_again(plan, options, &finished)) return 1;
  // A suspended TrainJob nobody will resume on its own (no Kueue queue) is not waited for,
  // and all its Jobs are applied, so that `resume` starts the whole of it.
  bool manual_resume = waits_for_manual_resume(plan);
  std::vector<Json> now, later;
  split_stages(plan, options.wait && !manual_resume, &now, &later);
  skip_finished_by_policy(plan, &now, options);
  // Finished Jobs are left as they are: applying one that cleanPodPolicy suspended would
  // take its `suspend: true` back and start its pods again.
  if (finished) erase_jobs(&now), erase_jobs(&later);
  std::vector<Json> created;
  first_stage_at_ = clock_->now();
  if (!apply_stage(plan, now, options, &created)) return 1;
  if (finished) report_finished(plan, options);
  report_running_changed(plan, options);
  bool suspended = report_suspended(plan, options);
  if (!options.wait) return 0;
  if (suspended && manual_resume) {
    std::fprintf(out_, "not waiting: the TrainJob is suspended and nothing resumes it by itself\n");
    return 0;
  }
  return wait_for(plan, later, options);
}

}  // namespace trainjob
