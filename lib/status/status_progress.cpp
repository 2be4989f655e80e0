#include "status/status_progress.h"

#include "kube/resources.h"
#include "model/jobset_labels.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "status/logs/pod_logs.h"

namespace trainjob {
namespace {

/// The step whose Jobs carry trainjob-ancestor-step: trainer; `node` when none says so.
std::string trainer_step(const std::vector<Json>& jobs) {
  for (const Json& job : jobs) {
    const Json& labels = json_member(json_member(job, "metadata"), "labels");
    if (string_member(labels, kAncestorLabel) == kTrainerStep) return step_place(labels).step;
  }
  return kNodeName;
}

const NodeStatus* find_node(const TrainJobStatus& status, const std::string& step) {
  for (const NodeStatus& node : status.nodes) {
    if (node.step == step && node.job_index == 0 && node.index == 0) return &node;
  }
  return nullptr;
}

const Json* find_pod(const std::vector<Json>& pods, const std::string& name) {
  for (const Json& pod : pods) {
    if (string_member(json_member(pod, "metadata"), "name") == name) return &pod;
  }
  return nullptr;
}

}  // namespace

const NodeStatus* rank0_node(const TrainJobStatus& status, const std::vector<Json>& jobs) {
  if (status.kind == "TrainJob") return find_node(status, trainer_step(jobs));
  for (const char* step : {"master", "launcher", "chief", "worker"}) {
    if (const NodeStatus* node = find_node(status, step)) return node;
  }
  return nullptr;
}

std::string rank0_log_path(const std::string& name_space, const TrainJobStatus& status,
                           const std::vector<Json>& jobs, const std::vector<Json>& pods) {
  const NodeStatus* node = rank0_node(status, jobs);
  if (node == nullptr || node->pod.empty()) return "";
  const Json* pod = find_pod(pods, node->pod);
  if (pod == nullptr) return "";
  return object_path(pod_type(), name_space, node->pod) +
         "/log?container=" + url_escape(log_container(*pod, ""));
}

std::string read_log_quietly(KubeClient* client, const std::string& path) {
  try {
    ApiResponse response = client->send("GET", path);
    return response.ok() ? response.body : "";
  } catch (const std::exception&) {
    return "";
  }
}

std::optional<TrainerProgress> fetch_rank0_progress(
    KubeClient* client, const std::string& name_space, const TrainJobStatus& status,
    const std::vector<Json>& jobs, const std::vector<Json>& pods, BadProgressLines* bad) {
  if (status.phase != JobPhase::kRunning) return std::nullopt;
  const NodeStatus* node = rank0_node(status, jobs);
  if (node == nullptr || node->phase != JobPhase::kRunning) return std::nullopt;
  std::string path = rank0_log_path(name_space, status, jobs, pods);
  if (path.empty()) return std::nullopt;
  return latest_progress(
      read_log_quietly(
          client, path + "&tailLines=" + std::to_string(kProgressTailLines) + "&timestamps=true"),
      true, bad);
}

}  // namespace trainjob
