#include "status/list/trainjob_list.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "kube/objects.h"
#include "kube/resources.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "status/cluster_output.h"
#include "status/status_output.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// The training pods: those of a TrainJob's `node` step, or every pod of a legacy kind
/// (whose Jobs each run one replica).
long node_count(const std::vector<Json>& jobs) {
  long nodes = 0;
  for (const Json& job : jobs) {
    StepPlace place = step_place_of(job);
    if (place.legacy || place.step == kNodeName) nodes += job["spec"].value("parallelism", 1);
  }
  return nodes;
}

/// Namespace and TrainJob name: with -A, two namespaces may each have a TrainJob "demo".
using ListKey = std::pair<std::string, std::string>;

ListKey list_key_of(const Json& object) {
  return {string_member(member_or_empty(object, "metadata"), "namespace"),
          label_of(object, kTrainJobNameLabel)};
}

/// The TrainJobs with an object of `type` that `selector` matches, besides being the plugin's.
std::set<ListKey> selected_by(KubeClient* client, const ResourceType& type,
                              const std::string& name_space, const std::string& selector) {
  std::string both =
      url_escape(std::string(kManagedByLabel) + "=" + kManagedByValue + "," + selector);
  std::set<ListKey> keys;
  for (const Json& object : list_objects(client, type, name_space, both).items)
    keys.insert(list_key_of(object));
  return keys;
}

}  // namespace

std::vector<ListedTrainJob> list_trainjobs(KubeClient* client, const std::string& name_space,
                                           const std::string& user_selector) {
  // -l: a TrainJob is selected by its Jobs' labels; by its Service's once no Job is left.
  std::set<ListKey> by_job, by_service;
  if (!user_selector.empty()) {
    by_job = selected_by(client, job_type(), name_space, user_selector);
    by_service = selected_by(client, service_type(), name_space, user_selector);
    if (by_job.empty() && by_service.empty()) return {};
  }
  std::string selector = url_escape(std::string(kManagedByLabel) + "=" + kManagedByValue);
  std::map<ListKey, ListedTrainJob> found;
  for (Json& job : list_objects(client, job_type(), name_space, selector).items)
    found[list_key_of(job)].jobs.push_back(std::move(job));
  for (Json& service : list_objects(client, service_type(), name_space, selector).items)
    found[list_key_of(service)].others.push_back(std::move(service));
  // Pods only of the TrainJobs found: a pod outliving its Job is no TrainJob.
  for (Json& pod : list_objects(client, pod_type(), name_space, selector).items) {
    auto it = found.find(list_key_of(pod));
    if (it != found.end()) it->second.pods.push_back(std::move(pod));
  }
  std::vector<ListedTrainJob> trainjobs;
  for (auto& [key, listed] : found) {
    if (key.second.empty()) continue;
    bool selected = by_job.count(key) > 0 || (listed.jobs.empty() && by_service.count(key) > 0);
    if (!user_selector.empty() && !selected) continue;
    listed.name_space = key.first;
    listed.name = key.second;
    trainjobs.push_back(std::move(listed));
  }
  return trainjobs;
}

std::string format_trainjob_names(const std::vector<ListedTrainJob>& trainjobs) {
  std::string text;
  for (const ListedTrainJob& trainjob : trainjobs) {
    std::string kind = source_kind_of(trainjob.jobs);  // as kubectl names it: trainjob/NAME
    std::transform(kind.begin(), kind.end(), kind.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    text += kind + "/" + trainjob.name + "\n";
  }
  return text;
}

Json trainjob_status_list(const std::vector<ListedTrainJob>& trainjobs,
                          const std::string& name_space) {
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", Json::array()}};
  for (const ListedTrainJob& trainjob : trainjobs) {
    const std::string& own = trainjob.name_space.empty() ? name_space : trainjob.name_space;
    list["items"].push_back(
        status_json(compute_status(trainjob.name, trainjob.jobs, trainjob.pods, {}), own));
  }
  return list;
}

std::vector<std::string> trainjob_table_rows(const std::vector<ListedTrainJob>& trainjobs,
                                             double now, bool all_namespaces) {
  std::string table = format_trainjob_table(trainjobs, now, all_namespaces);
  std::vector<std::string> rows;
  size_t start = table.find('\n') + 1;  // past the header
  for (size_t end; (end = table.find('\n', start)) != std::string::npos; start = end + 1)
    rows.push_back(table.substr(start, end - start + 1));
  return rows;
}

std::string format_trainjob_table(const std::vector<ListedTrainJob>& trainjobs, double now,
                                  bool all_namespaces) {
  std::vector<std::vector<std::string>> rows = {{"NAME", "KIND", "PHASE", "STEPS", "NODES", "AGE"}};
  for (const ListedTrainJob& trainjob : trainjobs) {
    TrainJobStatus status = compute_status(trainjob.name, trainjob.jobs, trainjob.pods, {});
    std::vector<Json> all = trainjob.jobs;
    all.insert(all.end(), trainjob.others.begin(), trainjob.others.end());
    rows.push_back({trainjob.name, status.kind, job_phase_name(status.phase),
                    std::to_string(status.steps.size()), std::to_string(node_count(trainjob.jobs)),
                    format_age(now - oldest_creation(all))});
  }
  if (all_namespaces) {
    rows[0].insert(rows[0].begin(), "NAMESPACE");
    for (size_t i = 1; i < rows.size(); ++i)
      rows[i].insert(rows[i].begin(), trainjobs[i - 1].name_space);
  }
  return format_columns(rows);
}

}  // namespace trainjob
