#include "status/kueue_status.h"

#include <algorithm>
#include <tuple>

#include "kube/resources.h"
#include "model/vocabulary.h"

namespace trainjob {

namespace {

const Json& metadata_of(const Json& object) {
  return json_member(object, "metadata");
}

/// The condition `type` of `object`'s status, or null.
const Json& condition_of(const Json& object, const char* type) {
  static const Json none;
  const Json& conditions = json_member(json_member(object, "status"), "conditions");
  if (!conditions.is_array()) return none;
  for (const Json& condition : conditions)
    if (string_member_ref(condition, "type") == type) return condition;
  return none;
}

bool condition_true(const Json& object, const char* type) {
  return string_member_ref(condition_of(object, type), "status") == "True";
}

/// The uid of the Job that owns `workload`, or "".
std::string owner_uid(const Json& workload) {
  const Json& owners = json_member(metadata_of(workload), "ownerReferences");
  if (!owners.is_array()) return "";
  for (const Json& owner : owners)
    if (string_member_ref(owner, "kind") == "Job") return string_member(owner, "uid");
  return "";
}

bool pending(const Json& workload) {
  return !condition_true(workload, kKueueQuotaReserved) &&
         !condition_true(workload, kKueueFinished);
}

KueueWorkloadStatus workload_status(const Json& job, const Json& workload) {
  KueueWorkloadStatus out;
  out.job = string_member(metadata_of(job), "name");
  out.workload = string_member(metadata_of(workload), "name");
  out.queue = string_member(json_member(workload, "spec"), "queueName");
  out.admitted = condition_true(workload, kKueueAdmitted);
  out.finished = condition_true(workload, kKueueFinished);
  const Json& reserved = condition_of(workload, kKueueQuotaReserved);
  if (!out.admitted && !out.finished) {
    out.reason = string_member(reserved, "reason");
    out.message = string_member(reserved, "message");
  }
  return out;
}

}  // namespace

std::vector<KueueWorkloadStatus> kueue_workloads_of(const std::vector<Json>& jobs,
                                                    const std::vector<Json>& workloads) {
  std::vector<KueueWorkloadStatus> out;
  for (const Json& job : jobs) {
    std::string uid = string_member(metadata_of(job), "uid");
    if (uid.empty()) continue;
    for (const Json& workload : workloads)
      if (owner_uid(workload) == uid) out.push_back(workload_status(job, workload));
  }
  return out;
}

std::optional<int> kueue_position_from_workloads(const std::string& name, const std::string& queue,
                                                 const std::vector<Json>& workloads) {
  // (priority, descending; creation time; name): Kueue's queue order, the name for a tie.
  using Key = std::tuple<long long, std::string, std::string>;
  std::vector<Key> queued;
  for (const Json& workload : workloads) {
    const Json& spec = json_member(workload, "spec");
    if (string_member_ref(spec, "queueName") != queue || !pending(workload)) continue;
    const Json& priority = json_member(spec, "priority");
    long long rank = priority.is_number_integer() ? -priority.get<long long>() : 0;
    queued.emplace_back(rank, string_member(metadata_of(workload), "creationTimestamp"),
                        string_member(metadata_of(workload), "name"));
  }
  std::sort(queued.begin(), queued.end());
  for (size_t i = 0; i < queued.size(); ++i)
    if (std::get<2>(queued[i]) == name) return static_cast<int>(i) + 1;
  return std::nullopt;
}

std::optional<int> kueue_position_from_visibility(const std::string& name, const Json& pending) {
  const Json& items = json_member(pending, "items");
  if (!items.is_array()) return std::nullopt;
  for (const Json& item : items) {
    if (string_member_ref(metadata_of(item), "name") != name) continue;
    const Json& position = json_member(item, "positionInLocalQueue");
    if (position.is_number_integer()) return position.get<int>() + 1;
  }
  return std::nullopt;
}

std::string kueue_line(const KueueWorkloadStatus& workload) {
  std::string line = "Kueue: Workload " + workload.workload + " of Job " + workload.job + ": ";
  if (workload.finished) return line + "finished";
  if (workload.admitted) return line + "admitted in LocalQueue " + workload.queue;
  line += "pending in LocalQueue " + workload.queue;
  if (workload.position)
    line += " (position " + std::to_string(*workload.position) + ", from " +
            workload.position_source + ")";
  if (!workload.reason.empty()) line += ": " + workload.reason;
  if (!workload.message.empty()) line += ": " + workload.message;
  return line;
}

namespace {

std::vector<Json> list_items(KubeClient* client, const std::string& path) {
  ApiResponse response = client->send("GET", path);
  if (!response.ok()) return {};
  Json list = response.json();
  std::vector<Json> items;
  if (list.contains("items") && list["items"].is_array())
    for (Json& item : list["items"])
      items.push_back(std::move(item));
  return items;
}

/// The visibility API's pending Workloads of LocalQueue `queue`; null when it does not answer.
std::optional<Json> visibility_pending(KubeClient* client, const std::string& name_space,
                                       const std::string& queue) {
  ResourceType local_queues = resource_type(kKueueVisibilityApiVersion, "LocalQueue");
  ApiResponse response =
      client->send("GET", object_path(local_queues, name_space, queue) + "/pendingworkloads");
  if (!response.ok()) return std::nullopt;
  return response.json();
}

bool any_queued(const std::vector<Json>& jobs) {
  return std::any_of(jobs.begin(), jobs.end(), [](const Json& job) {
    return !string_member(json_member(metadata_of(job), "labels"), kKueueQueueLabel).empty();
  });
}

}  // namespace

std::vector<KueueWorkloadStatus> fetch_kueue_status(KubeClient* client,
                                                    const std::string& name_space,
                                                    const std::vector<Json>& jobs) {
  if (!any_queued(jobs)) return {};
  std::vector<Json> workloads =
      list_items(client, collection_path(resource_type(kKueueApiVersion, "Workload"), name_space));
  std::vector<KueueWorkloadStatus> out = kueue_workloads_of(jobs, workloads);
  for (KueueWorkloadStatus& workload : out) {
    if (workload.admitted || workload.finished) continue;
    if (std::optional<Json> pending = visibility_pending(client, name_space, workload.queue)) {
      workload.position = kueue_position_from_visibility(workload.workload, *pending);
      workload.position_source = "Kueue's visibility API";
    } else {
      workload.position =
          kueue_position_from_workloads(workload.workload, workload.queue, workloads);
      workload.position_source = "the queue's pending Workloads";
    }
  }
  return out;
}

}  // namespace trainjob
