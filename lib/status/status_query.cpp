#include "status/status_query.h"

#include <optional>

#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/watcher.h"
#include "status/job_not_found.h"
#include "status/status_progress.h"

namespace trainjob {

std::vector<Json> pod_events(KubeClient* client, const std::string& name_space) {
  // Only warnings give a pod's reason (pod_reason): the scheduler's and the Job controller's
  // Normal events, two or more a pod, would make a 1,000-pod job's list the largest.
  std::string path = collection_path(event_type(), name_space) +
                     "?fieldSelector=" + url_escape("involvedObject.kind=Pod,type=Warning");
  ApiResponse response = client->send("GET", path);
  if (!response.ok()) return {};
  Json list = response.json();
  std::vector<Json> events;
  if (list.contains("items") && list["items"].is_array())
    for (Json& item : list["items"])
      events.push_back(std::move(item));
  return events;
}

namespace {

/// A TrainJob whose Jobs are gone still has its Services.
bool has_services(KubeClient* client, const std::string& name_space, const std::string& name) {
  return !list_objects(client, service_type(), name_space, trainjob_selector(name)).items.empty();
}

[[noreturn]] void throw_trainjob_not_found(const std::string& name_space, const std::string& name) {
  throw JobNotFound(name_space, name);
}

}  // namespace

void ensure_trainjob_exists(KubeClient* client, const std::string& name_space,
                            const std::string& name, const std::vector<Json>& jobs) {
  if (jobs.empty() && !has_services(client, name_space, name))
    throw_trainjob_not_found(name_space, name);
}

bool trainjob_exists(KubeClient* client, const std::string& name_space, const std::string& name) {
  return !list_objects(client, job_type(), name_space, trainjob_selector(name)).items.empty() ||
         has_services(client, name_space, name);
}

TrainJobStatus status_from(KubeClient* client, const std::string& name_space,
                           const std::string& name, const std::vector<Json>& jobs,
                           const std::vector<Json>& pods) {
  TrainJobStatus status = compute_status(name, jobs, pods, pod_events(client, name_space));
  status.progress =
      fetch_rank0_progress(client, name_space, status, jobs, pods, &status.bad_progress);
  if (!status.finished()) status.kueue = fetch_kueue_status(client, name_space, jobs);
  return status;
}

std::optional<TrainJobStatus> fetch_status_if_trainjob(KubeClient* client,
                                                       const std::string& name_space,
                                                       const std::string& name) {
  std::string selector = trainjob_selector(name);
  std::vector<Json> jobs = list_objects(client, job_type(), name_space, selector).items;
  if (jobs.empty() && !has_services(client, name_space, name)) return std::nullopt;
  std::vector<Json> pods = list_objects(client, pod_type(), name_space, selector).items;
  return status_from(client, name_space, name, jobs, pods);
}

TrainJobStatus fetch_status(KubeClient* client, const std::string& name_space,
                            const std::string& name) {
  std::optional<TrainJobStatus> status = fetch_status_if_trainjob(client, name_space, name);
  if (!status) throw_trainjob_not_found(name_space, name);
  return std::move(*status);
}

bool watch_status(KubeClient* client, const std::string& name_space, const std::string& name,
                  const std::function<void(const TrainJobStatus&)>& on_status) {
  TrainJobWatcher watcher(client, name_space, trainjob_selector(name));
  watcher.start();
  int seen = 0;
  std::optional<JobPhase> shown;  // the phase never moves back from Running to Pending
  while (true) {
    WatchSnapshot snapshot = watcher.wait_newer(seen, 30);
    if (snapshot.version == 0) continue;
    if (seen == 0) ensure_trainjob_exists(client, name_space, name, snapshot.jobs);
    seen = snapshot.version;
    TrainJobStatus status = status_from(client, name_space, name, snapshot.jobs, snapshot.pods);
    status.phase = forward_phase(shown, status.phase);
    shown = status.phase;
    if (status.finished()) status = final_frame(client, name_space, name, status);
    on_status(status);
    if (status.finished()) return status.phase == JobPhase::kComplete;
  }
}

TrainJobStatus final_frame(KubeClient* client, const std::string& name_space,
                           const std::string& name, const TrainJobStatus& seen) {
  std::optional<TrainJobStatus> now = fetch_status_if_trainjob(client, name_space, name);
  // Deleted meanwhile, or (submitted again) not finished: what the watch saw is the end.
  if (!now || !now->finished()) return seen;
  return std::move(*now);
}

}  // namespace trainjob
