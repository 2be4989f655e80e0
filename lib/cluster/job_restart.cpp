#include "cluster/job_restart.h"

#include <algorithm>

#include "kube/objects.h"
#include "kube/resources.h"
#include "status/restart_attempt.h"

namespace trainjob {
namespace {

bool jobs_and_pods_gone(KubeClient* client, const std::string& name_space,
                        const std::string& selector) {
  return !any_object(client, job_type(), name_space, selector) &&
         !any_object(client, pod_type(), name_space, selector);
}

}  // namespace

std::string delete_jobs_and_wait(KubeClient* client, const Clock& clock,
                                 const std::string& name_space, const std::string& name,
                                 const std::vector<Json>& old) {
  for (const Json& job : old)
    delete_object(client, job_type(), name_space, name_of(job));
  std::string selector = trainjob_selector(name);
  double deadline = clock.now() + kRestartDeleteTimeout;
  double delay = 0.1;
  while (!jobs_and_pods_gone(client, name_space, selector)) {
    if (clock.now() >= deadline)
      return "the old Jobs and their pods were still there after " +
             std::to_string(static_cast<int>(kRestartDeleteTimeout)) + " s";
    clock.sleep(delay);
    delay = std::min(delay * 2, 1.0);
  }
  return "";
}

std::string recreate_jobs(KubeClient* client, const Clock& clock, const std::string& name_space,
                          const std::string& name, const std::vector<Json>& old, int attempt) {
  std::string error = delete_jobs_and_wait(client, clock, name_space, name, old);
  if (!error.empty()) return error;
  for (const Json& live : old) {
    Json job = job_for_attempt(live, attempt);
    ApplyResult result = apply_object(client, job, name_space, /*dry_run=*/false);
    if (!result.ok) return "creating " + display_name(job) + ": " + result.error;
  }
  return "";
}

SubmitPlan at_live_restart_attempt(KubeClient* client, const SubmitPlan& plan) {
  if (restart_budget_of(plan.objects).max_restarts == 0) return plan;
  std::vector<Json> live =
      list_objects(client, job_type(), plan.name_space, trainjob_selector(plan.trainjob)).items;
  int attempt = restart_budget_of(live).attempt;
  if (attempt == 0) return plan;
  SubmitPlan out = plan;
  for (Json& object : out.objects) {
    if (string_member(object, "kind") == "Job") object = job_for_attempt(object, attempt);
  }
  return out;
}

std::string restart_line(const std::string& kind, const std::string& name, int attempt,
                         int max_restarts, const std::string& cause) {
  return kind + " " + name + ": Restarting (attempt " + std::to_string(attempt) + " of " +
         std::to_string(max_restarts) + "): " + cause;
}

}  // namespace trainjob
