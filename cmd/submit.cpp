// `kubectl trainjob submit`: render, then server-side apply, all or nothing.
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "cluster/submit_command.h"
#include "cluster_flags.h"
#include "command.h"
#include "input_flags.h"
#include "sweep_command.h"
#include "util/duration.h"

namespace trainjob {
namespace {

struct SubmitFlags {
  ConnectionFlags connection;
  InputFlags inputs;  ///< -n comes from the connection flags
  std::string dry_run = "none";
  bool wait = false;
  std::string timeout = "0";
  std::string progress_deadline = "10m";
  bool keep_on_error = false;
  bool replace = false;
  bool rerun = false;
  bool force_conflicts = false;
  std::vector<std::string> from_files;
  std::string output;
  std::string runtimes_from_cluster = "auto";
  SweepFlags sweep;
};

/// kubectl's deprecated --dry-run forms, as kubectl reads them (alone: client, true, false),
/// with kubectl's warning.
void read_deprecated_dry_run(std::string* value) {
  static const std::map<std::string, std::string> kDeprecated = {
      {"", "client"}, {"true", "client"}, {"false", "none"}};
  auto deprecated = kDeprecated.find(*value);
  if (deprecated == kDeprecated.end()) return;
  std::fprintf(stderr, "warning: --dry-run%s is deprecated and can be replaced with --dry-run=%s\n",
               value->empty() ? "" : ("=" + *value).c_str(), deprecated->second.c_str());
  *value = deprecated->second;
}

std::string check_dry_run(const std::string& value) {
  if (value == "none" || value == "client" || value == "server") return "";
  if (value == "true" || value == "false") return "";  // read_deprecated_dry_run warns
  return "expected none, client or server, found \"" + value + "\"";
}

/// The request the flags describe, once connected: the namespace may be the context's.
std::optional<SubmitRequest> make_submit_request(const SubmitFlags& flags, ClusterSession* session,
                                                 SweepFlags* sweep) {
  InputFlags inputs = flags.inputs;
  inputs.name_space = session->name_space();
  std::optional<RenderRequest> render = make_request(inputs);
  if (!render) return std::nullopt;
  SubmitRequest request;
  request.render = std::move(*render);
  // The session's namespace may be the context's; only -n makes a mismatch an error.
  request.render.namespace_from_flag = !flags.connection.name_space.empty();
  request.runtimes_from_cluster = flags.runtimes_from_cluster;
  request.from_files = flags.from_files;
  request.client_dry_run = flags.dry_run == "client";
  request.read_stdin = read_all_stdin;
  pick_seed(inputs, sweep, &request.render);
  request.drive_search = [inputs, sweep](const RenderResult& rendered,
                                         const std::function<void(SweepDrive*)>& connect) {
    return *drive_optimization(inputs, *sweep, rendered, connect);
  };
  return request;
}

int run_submit(const SubmitFlags& flags) {
  std::optional<double> timeout = parse_duration(flags.timeout);
  if (!timeout)
    return usage_error("--timeout: expected a duration such as 10m, found \"" + flags.timeout +
                       "\"");
  std::optional<double> progress_deadline = parse_duration(flags.progress_deadline);
  if (!progress_deadline)
    return usage_error("--progress-deadline: expected a duration such as 10m, found \"" +
                       flags.progress_deadline + "\"");
  if (flags.dry_run != "none" && (flags.wait || flags.replace || flags.rerun))
    return usage_error("--dry-run cannot be combined with --wait, --replace or --rerun");
  SubmitOptions options{flags.dry_run == "server", flags.wait,    *timeout,
                        flags.keep_on_error,       flags.replace, flags.rerun,
                        flags.output == "name"};
  options.progress_deadline_seconds = *progress_deadline;
  options.force_conflicts = flags.force_conflicts;
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    SweepFlags sweep = flags.sweep;
    std::optional<SubmitRequest> request = make_submit_request(flags, &session, &sweep);
    if (!request) return static_cast<int>(kExitUsage);
    request->options = options;
    std::string usage;
    int code = submit_inputs(std::move(*request), &session.client(), &session.clock(), &usage);
    return usage.empty() ? code : usage_error(usage);
  });
}

}  // namespace

CommandRunner declare_submit(CLI::App* app) {
  auto flags = std::make_shared<SubmitFlags>();
  add_input_and_gang_flags(app, &flags->inputs, /*declare_namespace=*/false);
  app->add_option("--dry-run", flags->dry_run,
                  "none (the default): apply; client: print what would be applied; server: ask "
                  "the server to check every object and change nothing. --dry-run alone is "
                  "client, as kubectl's (deprecated there)")
      ->expected(0, 1)
      ->check(CLI::Validator(check_dry_run, "{none,client,server}"));
  app->add_flag("--wait", flags->wait,
                "Run initializers first, then the trainer; wait for the end (exit 1 on failure)");
  app->add_option("--timeout", flags->timeout, "With --wait: give up after this long (0: never)")
      ->type_name("DURATION")
      ->capture_default_str();
  app->add_option("--progress-deadline", flags->progress_deadline,
                  "With --wait: fail once a pod stays Pending this long with no change (0: never); "
                  "running pods may run as long as they like")
      ->type_name("DURATION")
      ->capture_default_str();
  app->add_flag("--keep-on-error", flags->keep_on_error,
                "Leave what was created when an apply fails half way");
  app->add_flag("--replace", flags->replace,
                "When the submitted Jobs differ (Jobs are immutable) or have finished: delete "
                "them, wait until they are gone, submit");
  app->add_flag("--rerun", flags->rerun,
                "Delete what exists of the job first (finished or not), wait until it is gone, "
                "submit: runs it again");
  app->add_flag("--force-conflicts", flags->force_conflicts,
                "As kubectl apply --server-side: take fields another field manager owns, and "
                "change an object that exists but that submit did not create (it stays not the "
                "job's: delete leaves it)");
  add_run_sweep_flags(app, &flags->inputs, &flags->sweep);
  add_from_file_flag(app, &flags->from_files);
  add_runtimes_from_cluster_flag(app, &flags->runtimes_from_cluster, /*automatic=*/true);
  app->add_option("-o,--output", flags->output, "name: print only kind.group/name of each object")
      ->check(CLI::IsMember({"name"}));
  add_cluster_flags(app, &flags->connection);
  return [flags] {
    read_deprecated_dry_run(&flags->dry_run);  // --dry-run alone leaves it empty
    return run_submit(*flags);
  };
}

}  // namespace trainjob
