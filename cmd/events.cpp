// `kubectl trainjob events`: kubectl events for a TrainJob's own objects (the Kubeflow SDK's
// get_job_events).
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "status/cluster_output.h"
#include "status/job_events.h"

namespace trainjob {
namespace {

struct EventsFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME, TYPE/NAME or TYPE NAME
  std::string output = "table";
};

int run_events(const EventsFlags& flags) {
  std::optional<TrainJobTarget> target = target_of(flags.target);
  if (!target) return static_cast<int>(kExitFailure);
  return run_target_command(flags.connection, target->kind, [&](ClusterSession& session) {
    std::vector<Json> events =
        fetch_job_events(&session.client(), session.name_space(), target->name);
    if (flags.output != "table") {
      Json list = {{"apiVersion", "v1"},
                   {"kind", "EventList"},
                   {"metadata", Json::object()},
                   {"items", events}};
      std::string text = format_one(list, flags.output);
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else if (events.empty()) {
      // kubectl events says so on stderr, exit 0.
      std::fprintf(stderr, "No events found for %s in %s namespace.\n", target->name.c_str(),
                   session.name_space().c_str());
    } else {
      std::string table = format_events_table(events, session.clock().now());
      std::fwrite(table.data(), 1, table.size(), stdout);
    }
    return static_cast<int>(kExitOk);
  });
}

}  // namespace

CommandRunner declare_events(CLI::App* app) {
  auto flags = std::make_shared<EventsFlags>();
  app->footer(
      "The events of the TrainJob's Jobs, Service and pods (those since replaced too), oldest\n"
      "first, in kubectl events' table. The cluster keeps events for an hour by default.");
  add_target_arguments(app, &flags->target);
  add_output_flag(app, &flags->output, {"table", "yaml", "json"},
                  "-o jsonpath='{.items[*].reason}'");
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_events(*flags); };
}

}  // namespace trainjob
