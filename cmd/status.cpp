// `kubectl trainjob status`: a TrainJob-like status from its Jobs, pods and events.
#include <cstdio>
#include <memory>

#include "cluster/cluster_output.h"
#include "cluster/status_output.h"
#include "cluster/status_query.h"
#include "cluster_flags.h"
#include "command.h"
#include "kube/resources.h"

namespace trainjob {
namespace {

struct StatusFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME, TYPE/NAME or TYPE NAME
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
  std::string last;
  bool completed = watch_status(
      &session->client(), session->name_space(), flags.name, [&](const TrainJobStatus& status) {
        std::string text = render(status, flags.output, session->name_space());
        if (text == last) return;
        std::fwrite(text.data(), 1, text.size(), stdout);
        if (flags.output == "table") std::fputs("\n", stdout);
        std::fflush(stdout);
        last = text;
      });
  return completed ? kExitOk : kExitFailure;
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
  add_target_arguments(app, &flags->target);
  add_output_flag(app, &flags->output, {"table", "yaml", "json"},
                  "-o jsonpath='{.status.conditions[?(@.type==\"Complete\")].status}'");
  app->add_flag("-w,--watch", flags->watch,
                "Print the status again whenever it changes, until the TrainJob completes or fails "
                "(exit 0 or 1)");
  add_cluster_flags(app, &flags->connection);
  return [flags] {
    std::optional<std::string> name = target_name(flags->target);
    if (!name) return static_cast<int>(kExitFailure);
    flags->name = *name;
    return run_status(*flags);
  };
}

}  // namespace trainjob
