#include "status/restart_attempt.h"

#include <algorithm>
#include <cstdlib>

#include "kube/objects.h"
#include "model/step_place.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

int number_of(const std::string& text) {
  bool digits = std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (text.empty() || !digits || text.size() > 9) return 0;
  return std::atoi(text.c_str());
}

/// The keys the API server (selector) and the Job controller put on a Job's pod template.
constexpr const char* kGeneratedTemplateLabels[] = {
    kControllerUidLabelUnprefixed, kControllerUidLabel, kJobNameLabelUnprefixed, kJobNameLabel};

void set_attempt(Json* metadata, const std::string& attempt) {
  (*metadata)["labels"][kRestartAttemptKey] = attempt;
  (*metadata)["annotations"][kRestartAttemptKey] = attempt;
}

}  // namespace

RestartBudget restart_budget_of(const std::vector<Json>& jobs) {
  RestartBudget budget;
  for (const Json& job : jobs) {
    budget.attempt = std::max(budget.attempt, number_of(label_of(job, kRestartAttemptKey)));
    budget.max_restarts =
        std::max(budget.max_restarts, number_of(annotation_of(job, kMaxRestartsAnnotation)));
  }
  return budget;
}

void drop_older_attempts(int attempt, std::vector<Json>* objects) {
  if (attempt == 0) return;
  objects->erase(std::remove_if(objects->begin(), objects->end(),
                                [attempt](const Json& object) {
                                  return number_of(label_of(object, kRestartAttemptKey)) < attempt;
                                }),
                 objects->end());
}

Json job_for_attempt(const Json& job, int attempt) {
  Json out = {{"apiVersion", kBatchApiVersion}, {"kind", "Job"}};
  Json metadata = Json::object();
  for (const char* key : {"name", "namespace", "labels", "annotations", "ownerReferences"}) {
    if (job.contains("metadata") && job["metadata"].contains(key))
      metadata[key] = job["metadata"][key];
  }
  std::string value = std::to_string(attempt);
  set_attempt(&metadata, value);
  out["metadata"] = std::move(metadata);
  Json spec = job.value("spec", Json::object());
  spec.erase("selector");
  Json& pod_metadata = spec["template"]["metadata"];
  if (pod_metadata.contains("labels"))
    for (const char* key : kGeneratedTemplateLabels)
      pod_metadata["labels"].erase(key);
  set_attempt(&pod_metadata, value);
  out["spec"] = std::move(spec);
  return out;
}

std::string failure_cause(const TrainJobStatus& status) {
  for (const NodeStatus& node : status.nodes) {
    if (node.phase != JobPhase::kFailed || node.pod.empty()) continue;
    return "pod " + node.pod + " (" + node.label + ")" +
           (node.reason.empty() ? std::string(" failed") : ": " + node.reason);
  }
  return status.message;
}

std::string failed_reason(const TrainJobStatus& status) {
  if (status.reason == "DeadlineExceeded") return "DeadlineExceeded";
  if (status.max_restarts > 0 && status.restart_attempt >= status.max_restarts)
    return "ReachedMaxRestarts";
  return "FailedJobs";
}

std::string restarts_text(int count) {
  return std::to_string(count) + (count == 1 ? " restart" : " restarts");
}

}  // namespace trainjob
