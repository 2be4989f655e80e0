// `kubectl trainjob logs`: every pod of a TrainJob in one stream.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "status/logs/pod_logs.h"
#include "util/duration.h"

namespace trainjob {
namespace {

struct LogsFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME, TYPE/NAME or TYPE NAME
  std::string name;
  const ManagedKind* kind = nullptr;  ///< the TYPE given, if any
  LogOptions options;
  std::string since;
  long tail = -1;
};

int run_logs(const LogsFlags& flags) {
  LogOptions options = flags.options;
  if (!flags.since.empty()) {
    std::optional<double> since = parse_duration(flags.since);
    if (!since || *since <= 0)
      return usage_error("--since: expected a duration such as 10m, found \"" + flags.since + "\"");
    options.since_seconds = static_cast<long>(*since + 0.999);
  }
  if (flags.tail >= 0) options.tail_lines = flags.tail;
  if (options.previous && options.follow)
    return usage_error("--previous cannot be combined with -f");
  if (options.all_containers && !options.container.empty())
    return usage_error("--all-containers cannot be combined with -c");
  return run_target_command(flags.connection, flags.kind, [&](ClusterSession& session) {
    PodLogs logs(&session.client(), session.name_space(), flags.name, options, stdout, stderr);
    return logs.run();
  });
}

}  // namespace

CommandRunner declare_logs(CLI::App* app) {
  auto flags = std::make_shared<LogsFlags>();
  LogOptions& options = flags->options;
  add_target_arguments(app, &flags->target);
  app->add_flag("-f,--follow", options.follow,
                "Stream: wait for pods to start, follow restarts, end when every pod has finished");
  app->add_option("--step", options.step,
                  "Only this step: node, dataset-initializer, model-initializer...; a legacy job's "
                  "replica type (Worker: any case, when that names one step)")
      ->type_name("STEP");
  app->add_option("--node", options.node, "Only the pod with this index")->type_name("N");
  app->add_flag("--prefix", options.prefix, "Prefix lines with [step-index] even for one pod");
  app->add_flag("--timestamps", options.timestamps, "Start each line with its RFC 3339 timestamp");
  app->add_option("--since", flags->since, "Only lines newer than this (5s, 2m, 3h)")
      ->type_name("DURATION");
  app->add_option("--tail", flags->tail, "Only the last N lines of each pod (-1: all)")
      ->type_name("N");
  app->add_flag("-p,--previous", options.previous,
                "The previous, terminated container of each pod");
  app->add_option("-c,--container", options.container, "Container (default: the step's own)")
      ->type_name("NAME");
  app->add_flag("--all-containers", options.all_containers,
                "Every container of each pod, init containers first; lines prefixed with "
                "[node-0/CONTAINER]");
  add_cluster_flags(app, &flags->connection);
  return [flags] {
    std::optional<TrainJobTarget> target = target_of(flags->target);
    if (!target) return static_cast<int>(kExitFailure);
    flags->name = target->name;
    flags->kind = target->kind;
    return run_logs(*flags);
  };
}

}  // namespace trainjob
