// `submit`: server-side apply of a rendered TrainJob, all or nothing, with JobSet-like
// ordering and failure handling when waiting.
#ifndef TRAINJOB_CLUSTER_SUBMIT_H_
#define TRAINJOB_CLUSTER_SUBMIT_H_

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/stall_deadline.h"
#include "cluster/submit_ownership.h"
#include "cluster/submit_plan.h"
#include "kube/client.h"
#include "kube/environment.h"
#include "load/json.h"
#include "status/job_stages.h"
#include "status/trainjob_status.h"

namespace trainjob {

struct SubmitOptions {
  bool server_dry_run = false;
  bool wait = false;
  double timeout_seconds = 0;  ///< with wait; 0: none
  bool keep_on_error = false;
  bool replace = false;
  bool rerun = false;       ///< delete what exists of the TrainJob first, then create it again
  bool names_only = false;  ///< -o name: `job.batch/NAME` without the operation word
  /// Apply with force (kubectl's --force-conflicts): take fields another field manager owns,
  /// and change an object submit did not create (which stays not the TrainJob's).
  bool force_conflicts = false;
  /// With wait: fail once a pod stayed Pending this long with nothing changing; 0: never.
  double progress_deadline_seconds = kDefaultProgressDeadline;
};

class Submitter {
 public:
  Submitter(KubeClient* client, const Clock* clock, std::FILE* out, std::FILE* err);
  /// Returns the exit code: 0 applied (and, with wait, complete), 1 failed (said why).
  int submit(const SubmitPlan& plan, const SubmitOptions& options);

 private:
  /// The server's dry run of every object; the Jobs it refuses as immutable go into
  /// `immutable` (unreported), other refusals are reported. True when all passed.
  bool dry_run_all(const SubmitPlan& plan, const SubmitOptions& options,
                   std::vector<std::string>* immutable);
  /// For an object the dry run (`*result`) found existing: reads it into live_; for one submit
  /// did not create for the TrainJob (foreign_), `*result` becomes the dry run of the apply it
  /// gets instead, or a refusal when that would change it without --force-conflicts (or the
  /// server refuses it). The object as read; null when the dry run found none.
  std::optional<Json> read_existing(const SubmitPlan& plan, const Json& object,
                                    const SubmitOptions& options, ApplyResult* result);
  /// What --dry-run=server says of `object`: created, configured or unchanged.
  std::string dry_run_operation(const Json& object, const ApplyResult& result) const;
  /// The server's dry run of every object; when it finds Jobs that changed (immutable), with
  /// --replace the old objects are deleted and the dry run made again, else it says so. False
  /// (after saying why) when nothing may be applied.
  bool dry_run_or_replace(const SubmitPlan& plan, const SubmitOptions& options);
  bool apply_stage(const SubmitPlan& plan, const std::vector<Json>& objects,
                   const SubmitOptions& options, std::vector<Json>* created);
  /// For an object created only if absent: true (after saying so) when it exists already.
  bool kept_as_is(const SubmitPlan& plan, const Json& object, const SubmitOptions& options,
                  bool dry_run);
  /// Says that the applied Jobs are suspended and what resumes them (on stderr with -o name);
  /// true when they are.
  bool report_suspended(const SubmitPlan& plan, const SubmitOptions& options);
  /// The later Jobs whose dependencies are met, with the time left of the TrainJob's
  /// activeDeadlineSeconds; false (after stopping the rest) when none is left.
  bool start_ready_jobs(const SubmitPlan& plan, const std::vector<Json>& live,
                        std::vector<Json>* later, const SubmitOptions& options);
  /// Sets a Job started `elapsed` seconds after the first stage to what is left of the
  /// TrainJob's activeDeadlineSeconds (or to the deadline it got when submitted before); false,
  /// after failing the TrainJob, when nothing is left.
  bool give_deadline_left(const SubmitPlan& plan, const std::vector<Json>& live, double elapsed,
                          Json* job);
  /// Drops from `objects` the Jobs of a TrainJob whose success policy is met already that
  /// no longer exist (deleted when it completed), saying so.
  void skip_finished_by_policy(const SubmitPlan& plan, std::vector<Json>* objects,
                               const SubmitOptions& options);
  /// Deletes the Jobs the success policy does not target that still run.
  void stop_non_targets(const SubmitPlan& plan, const SuccessPolicy& policy,
                        const std::vector<Json>& live);
  /// Deletes every Job in `live` that has not finished, saying `why`.
  void stop_jobs(const SubmitPlan& plan, std::vector<Json> live, const char* why);
  void roll_back(const SubmitPlan& plan, const std::vector<Json>& created);
  void report(const Json& object, const char* operation, const SubmitOptions& options);
  /// Deletes what exists of the TrainJob (saying so, with `flag`) and waits, bounded, until
  /// it and its pods are gone; false (after saying why) when they are not.
  bool replace_existing(const SubmitPlan& plan, const char* flag);
  /// Finished Jobs (all the existing ones, as the dry run found them) are not run again by
  /// an apply: with --replace they are deleted and the dry run made again; without,
  /// `*finished` is set for report_finished. False (after saying why) when nothing may be
  /// applied.
  bool run_again(const SubmitPlan& plan, const SubmitOptions& options, bool* finished);
  void report_finished(const SubmitPlan& plan, const SubmitOptions& options);
  /// Says that the Jobs run on with what their pods read when they started, when the apply
  /// changed a ConfigMap or Secret they may read (changed_inputs_), and how to run it anew.
  void report_running_changed(const SubmitPlan& plan, const SubmitOptions& options);
  /// The apply of `object` (dry run or not): forced with --force-conflicts; one submit did not
  /// create (foreign_) without the TrainJob's labels.
  ApplyResult apply_planned(const SubmitPlan& plan, const Json& object,
                            const SubmitOptions& options, bool dry_run);
  int wait_for(const SubmitPlan& plan, const std::vector<Json>& later_jobs,
               const SubmitOptions& options);
  /// JobSet's failurePolicy.maxRestarts: says why (`failed`'s first failed pod), deletes every
  /// Job and creates the plan's again for the next restart attempt, the Jobs with dependsOn
  /// back in `later`; false (after saying why) when that failed.
  bool restart_all(const SubmitPlan& plan, const std::vector<Json>& live,
                   const TrainJobStatus& failed, std::vector<Json>* later,
                   const SubmitOptions& options);
  /// A failed TrainJob: stops the rest as JobSet or the operator would, says why; 1.
  int fail_wait(const SubmitPlan& plan, const std::vector<Json>& live,
                const TrainJobStatus& status);
  /// A legacy kind's runPolicy.cleanPodPolicy once it finished: None leaves the pods that
  /// still run (saying so), Running stops them, All also deletes the finished ones.
  void apply_clean_pod_policy(const SubmitPlan& plan, const std::vector<Json>& live);

  KubeClient* client_;
  const Clock* clock_;
  std::FILE* out_;
  std::FILE* err_;
  std::map<std::string, Json> live_;  ///< objects the dry run found existing, as then read
  int existing_jobs_ = 0;             ///< Jobs of the plan the last dry run found existing
  int finished_jobs_ = 0;             ///< ... of which have finished (Complete or Failed)
  int running_jobs_ = 0;              ///< ... of which have started and not finished
  /// Objects that exist and that submit did not create for the TrainJob, by display name.
  std::map<std::string, ForeignObject> foreign_;
  /// ConfigMaps and Secrets the apply changed (not created): what running pods may have read.
  std::vector<std::string> changed_inputs_;
  /// The Jobs the server created or left suspended: Kueue's webhook suspends a Job in a queue.
  std::set<std::string> server_suspended_;
  double first_stage_at_ = 0;  ///< when the first Jobs were applied: the deadline counts from it
};

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_H_
