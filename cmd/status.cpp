// `kubectl trainjob status`: a TrainJob-like status from its Jobs, pods and events.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "cluster_output.h"
#include "command.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/status_progress.h"
#include "kube/trainjob_status.h"
#include "kube/watcher.h"

namespace trainjob {
namespace {

struct StatusFlags {
  ConnectionFlags connection;
  std::string name;
  std::string output = "table";
  bool watch = false;
};

std::vector<Json> pod_events(KubeClient* client, const std::string& name_space) {
  std::string path = collection_path(event_type(), name_space) +
                     "?fieldSelector=" + url_escape("involvedObject.kind=Pod");
  ApiResponse response = client->send("GET", path);
  if (!response.ok()) return {};  // events only sharpen the reasons; their absence is no error
  Json list = response.json();
  std::vector<Json> events;
  if (list.contains("items") && list["items"].is_array())
    for (Json& item : list["items"])
      events.push_back(std::move(item));
  return events;
}

std::string render(const TrainJobStatus& status, const std::string& format,
                   const std::string& name_space) {
  if (format == "table") return format_status_table(status);
  return format_one(status_json(status, name_space), format);
}

void ensure_exists(KubeClient* client, const std::string& name_space, const std::string& name,
                   const std::vector<Json>& jobs) {
  if (!jobs.empty()) return;
  if (list_objects(client, service_type(), name_space, trainjob_selector(name)).items.empty())
    throw KubeError("trainjob \"" + name + "\" not found in namespace \"" + name_space + "\"");
}

int watch_status(const StatusFlags& flags, ClusterSession* session) {
  KubeClient& client = session->client();
  TrainJobWatcher watcher(&client, session->name_space(), trainjob_selector(flags.name));
  watcher.start();
  std::string last;
  int seen = 0;
  bool checked = false;
  while (true) {
    // Every 30 s without a change too: rank 0's progress moves while the objects do not.
    WatchSnapshot snapshot = watcher.wait_newer(seen, 30);
    if (snapshot.version == 0) continue;
    seen = snapshot.version;
    if (!checked) ensure_exists(&client, session->name_space(), flags.name, snapshot.jobs);
    checked = true;
    TrainJobStatus status = compute_status(flags.name, snapshot.jobs, snapshot.pods,
                                           pod_events(&client, session->name_space()));
    status.progress =
        fetch_rank0_progress(&client, session->name_space(), status, snapshot.jobs, snapshot.pods);
    std::string text = render(status, flags.output, session->name_space());
    if (text != last) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      if (flags.output == "table") std::fputs("\n", stdout);
      std::fflush(stdout);
      last = text;
    }
    if (status.finished()) return status.phase == "Complete" ? 0 : 1;
  }
}

int run_status(const StatusFlags& flags) {
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    if (flags.watch) return watch_status(flags, &session);
    KubeClient& client = session.client();
    std::string selector = trainjob_selector(flags.name);
    std::vector<Json> jobs =
        list_objects(&client, job_type(), session.name_space(), selector).items;
    ensure_exists(&client, session.name_space(), flags.name, jobs);
    std::vector<Json> pods =
        list_objects(&client, pod_type(), session.name_space(), selector).items;
    TrainJobStatus status =
        compute_status(flags.name, jobs, pods, pod_events(&client, session.name_space()));
    status.progress = fetch_rank0_progress(&client, session.name_space(), status, jobs, pods);
    std::string text = render(status, flags.output, session.name_space());
    std::fwrite(text.data(), 1, text.size(), stdout);
    return static_cast<int>(kExitOk);
  });
}

}  // namespace

CommandRunner declare_status(CLI::App* app) {
  auto flags = std::make_shared<StatusFlags>();
  app->add_option("NAME", flags->name, "The TrainJob")->required()->type_name("TRAINJOB");
  add_output_flag(app, &flags->output, {"table", "yaml", "json"});
  app->add_flag("-w,--watch", flags->watch,
                "Print the status again whenever it changes, until the TrainJob completes or fails "
                "(exit 0 or 1)");
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_status(*flags); };
}

}  // namespace trainjob
