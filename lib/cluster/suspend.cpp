#include "cluster/suspend.h"

#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "model/vocabulary.h"
#include "status/job_not_found.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// Failed is terminal (Trainer 2.4, kubeflow/trainer#3891): resuming the Jobs of a failed
/// TrainJob would run pods of a TrainJob that stays Failed. True when it refused.
bool refuse_failed_resume(const std::string& name, const std::vector<Json>& jobs, std::FILE* err) {
  TrainJobStatus status = compute_status(name, jobs, {}, {});
  if (status.phase != JobPhase::kFailed) return false;
  std::fprintf(err,
               "error: TrainJob %s failed (%s) and a failed TrainJob never runs again: delete "
               "it and submit it anew; nothing was changed\n",
               name.c_str(), status.message.c_str());
  return true;
}

}  // namespace

int set_trainjob_suspended(KubeClient* client, const std::string& name_space,
                           const std::string& name, bool suspend, std::FILE* out, std::FILE* err) {
  std::vector<Json> jobs =
      list_objects(client, job_type(), name_space, trainjob_selector(name)).items;
  if (jobs.empty())
    throw JobNotFound(
        name_space, name,
        std::string(" (no Job carries the label ") + kTrainJobNameLabel + "=" + name + ")");
  for (const Json& job : jobs) {
    std::string queue = label_of(job, kKueueQueueLabel);
    if (queue.empty()) continue;
    std::fprintf(err,
                 "error: the Jobs of TrainJob %s are managed by Kueue (job.batch/%s is in queue "
                 "%s): Kueue sets spec.suspend when it admits or evicts them, so %s would be "
                 "undone; nothing was changed\n",
                 name.c_str(), name_of(job).c_str(), queue.c_str(),
                 suspend ? "suspending" : "resuming");
    return 1;
  }
  if (!suspend && refuse_failed_resume(name, jobs, err)) return 1;
  const char* done = suspend ? "suspended" : "resumed";
  std::string body = suspend ? R"({"spec":{"suspend":true}})" : R"({"spec":{"suspend":false}})";
  for (const Json& job : jobs) {
    std::string shown = kKubectlJobPrefix + name_of(job);
    JobPhase state = job_state(job);
    if (job_phase_finished(state)) {
      std::fprintf(out, "%s unchanged (already %s)\n", shown.c_str(), job_phase_name(state));
      continue;
    }
    if (member_or_empty(job, "spec").value("suspend", false) == suspend) {
      std::fprintf(out, "%s unchanged (already %s)\n", shown.c_str(), done);
      continue;
    }
    std::string path =
        object_path(job_type(), name_space, name_of(job)) + "?fieldManager=" + kFieldManager;
    client->call("PATCH", path, body, "application/merge-patch+json");
    std::fprintf(out, "%s %s\n", shown.c_str(), done);
  }
  std::fflush(out);
  return 0;
}

}  // namespace trainjob
