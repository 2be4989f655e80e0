// `kubectl trainjob status`: a TrainJob-like status from its Jobs, pods and events.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "kube/cluster_output.h"
#include "kube/resources.h"
#include "kube/status_query.h"
#include "kube/watcher.h"

namespace trainjob {
namespace {

struct StatusFlags {
  ConnectionFlags connection;
  std::string name;
  std::string output = "table";
  bool watch = false;
};

std::string render(const TrainJobStatus& status, const std::string& format,
                   const std::string& name_space) {
  if (format == "table") return format_status_table(status);
  return format_one(status_json(status, name_space), format);
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
    if (!checked) ensure_trainjob_exists(&client, session->name_space(), flags.name, snapshot.jobs);
    checked = true;
    TrainJobStatus status =
        status_from(&client, session->name_space(), flags.name, snapshot.jobs, snapshot.pods);
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
    TrainJobStatus status = fetch_status(&session.client(), session.name_space(), flags.name);
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
