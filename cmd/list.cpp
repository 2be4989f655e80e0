// `kubectl trainjob list`: the TrainJobs of a namespace, found by their labels.
#include <cctype>
#include <cstdio>
#include <map>
#include <memory>

#include "cluster_flags.h"
#include "cluster_output.h"
#include "command.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/trainjob_status.h"
#include "output/render_output.h"
#include "render/operator_labels.h"

namespace trainjob {
namespace {

struct ListFlags {
  ConnectionFlags connection;
  std::string output = "table";
};

struct Found {
  std::vector<Json> jobs;
  std::vector<Json> pods;
  std::vector<Json> others;
};

std::string lower(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// The training pods: those of a TrainJob's `node` step, or every pod of a legacy kind
/// (whose Jobs each run one replica).
long node_count(const std::vector<Json>& jobs) {
  long nodes = 0;
  for (const Json& job : jobs) {
    StepPlace place = step_place_of(job);
    if (place.legacy || place.step == "node") nodes += job["spec"].value("parallelism", 1);
  }
  return nodes;
}

int run_list(const ListFlags& flags) {
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    KubeClient& client = session.client();
    std::string selector = url_escape(std::string(kManagedByLabel) + "=" + kManagedByValue);
    std::map<std::string, Found> trainjobs;
    for (Json& job : list_objects(&client, job_type(), session.name_space(), selector).items)
      trainjobs[label_of(job, kTrainJobNameLabel)].jobs.push_back(std::move(job));
    for (Json& service :
         list_objects(&client, service_type(), session.name_space(), selector).items)
      trainjobs[label_of(service, kTrainJobNameLabel)].others.push_back(std::move(service));
    for (Json& pod : list_objects(&client, pod_type(), session.name_space(), selector).items) {
      auto it = trainjobs.find(label_of(pod, kTrainJobNameLabel));
      if (it != trainjobs.end()) it->second.pods.push_back(std::move(pod));
    }
    trainjobs.erase("");
    double now = session.clock().now();
    if (flags.output == "name") {
      for (const auto& [name, found] : trainjobs)
        std::printf("%s/%s\n", lower(source_kind_of(found.jobs)).c_str(), name.c_str());
      return static_cast<int>(kExitOk);
    }
    if (flags.output == "json" || flags.output == "yaml") {
      Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", Json::array()}};
      for (const auto& [name, found] : trainjobs)
        list["items"].push_back(
            status_json(compute_status(name, found.jobs, found.pods, {}), session.name_space()));
      std::string text = format_one(list, flags.output);
      std::fwrite(text.data(), 1, text.size(), stdout);
      return static_cast<int>(kExitOk);
    }
    if (trainjobs.empty()) {
      std::fprintf(stderr, "No TrainJobs found in %s namespace.\n", session.name_space().c_str());
      return static_cast<int>(kExitOk);
    }
    std::vector<std::vector<std::string>> rows = {
        {"NAME", "KIND", "PHASE", "STEPS", "NODES", "AGE"}};
    for (const auto& [name, found] : trainjobs) {
      TrainJobStatus status = compute_status(name, found.jobs, found.pods, {});
      std::vector<Json> all = found.jobs;
      all.insert(all.end(), found.others.begin(), found.others.end());
      rows.push_back({name, status.kind, status.phase, std::to_string(status.steps.size()),
                      std::to_string(node_count(found.jobs)),
                      format_age(now - oldest_creation(all))});
    }
    std::string text = format_columns(rows);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return static_cast<int>(kExitOk);
  });
}

}  // namespace

CommandRunner declare_list(CLI::App* app) {
  auto flags = std::make_shared<ListFlags>();
  add_output_flag(app, &flags->output, {"table", "wide", "yaml", "json", "name"});
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_list(*flags); };
}

}  // namespace trainjob
