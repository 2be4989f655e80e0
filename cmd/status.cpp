// `kubectl trainjob status`: a TrainJob-like status from its Jobs, pods and events; of an
// OptimizationJob, its trials' table and the best trial.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "kube/resources.h"
#include "status/cluster_output.h"
#include "status/status_output.h"
#include "status/status_query.h"
#include "status/sweep_status.h"
#include "status/trainjob_names.h"

namespace trainjob {
namespace {

struct StatusFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME, TYPE/NAME or TYPE NAME
  std::string name;
  const ManagedKind* kind = nullptr;  ///< the TYPE given, if any
  std::string output = "table";
  bool watch = false;
};

std::string render(const TrainJobStatus& status, const std::string& format,
                   const std::string& name_space) {
  if (format == "table") return format_status_table(status);
  return format_one(status_json(status, name_space), format);
}

/// --watch: prints a status again only when its text changed, tables a blank line apart.
class ChangePrinter {
 public:
  explicit ChangePrinter(const std::string& output) : output_(output) {}
  void print(const std::string& text) {
    if (text == last_) return;
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (output_ == "table") std::fputs("\n", stdout);
    std::fflush(stdout);
    last_ = text;
  }

 private:
  const std::string& output_;
  std::string last_;
};

int watch_status(const StatusFlags& flags, ClusterSession* session) {
  ChangePrinter printer(flags.output);
  bool completed = watch_status(
      &session->client(), session->name_space(), flags.name, [&](const TrainJobStatus& status) {
        printer.print(render(status, flags.output, session->name_space()));
      });
  return completed ? kExitOk : kExitFailure;
}

std::string render_sweep(const SweepStatus& status, const std::string& format,
                         const std::string& name_space) {
  if (format == "table") return format_sweep_status(status);
  return format_one(sweep_status_json(status, name_space), format);
}

/// The OptimizationJob `flags.name` of `trials`: once, or with --watch every few seconds.
int show_sweep(const StatusFlags& flags, ClusterSession* session,
               const std::vector<TrialObject>& trials) {
  KubeClient* client = &session->client();
  const std::string& name_space = session->name_space();
  if (trials.empty()) throw_sweep_not_found(name_space, flags.name);
  if (!flags.watch) {
    std::string text = render_sweep(fetch_sweep_status(client, name_space, flags.name, trials),
                                    flags.output, name_space);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return static_cast<int>(kExitOk);
  }
  ChangePrinter printer(flags.output);
  bool succeeded = watch_sweep_status(
      client, session->clock(), name_space, flags.name, 2.0, [&](const SweepStatus& status) {
        printer.print(render_sweep(status, flags.output, name_space));
      });
  return succeeded ? kExitOk : kExitFailure;
}

/// NAME alone is the TrainJob NAME, else the OptimizationJob NAME: a TrainJob wins.
int status_of_name(const StatusFlags& flags, ClusterSession* session) {
  KubeClient* client = &session->client();
  const std::string& name_space = session->name_space();
  if (flags.watch) {
    if (trainjob_exists(client, name_space, flags.name)) return watch_status(flags, session);
  } else if (auto status = fetch_status_if_trainjob(client, name_space, flags.name)) {
    std::string text = render(*status, flags.output, name_space);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return static_cast<int>(kExitOk);
  }
  std::vector<TrialObject> trials = find_sweep_trials(client, name_space, flags.name);
  if (trials.empty()) ensure_trainjob_exists(client, name_space, flags.name, {});  // not found
  return show_sweep(flags, session, trials);
}

int run_status(const StatusFlags& flags) {
  return run_target_command(flags.connection, flags.kind, [&](ClusterSession& session) {
    if (flags.kind == &optimization_job_kind())
      return show_sweep(flags, &session,
                        find_sweep_trials(&session.client(), session.name_space(), flags.name));
    if (flags.kind == nullptr) return status_of_name(flags, &session);
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
  add_target_arguments(app, &flags->target, true);
  add_output_flag(app, &flags->output, {"table", "yaml", "json"},
                  "-o jsonpath='{.status.conditions[?(@.type==\"Complete\")].status}'");
  app->add_flag("-w,--watch", flags->watch,
                "Print the status again whenever it changes, until the TrainJob completes or fails "
                "(exit 0 or 1); of an OptimizationJob, until no trial runs (exit 0 when one "
                "succeeded)");
  add_cluster_flags(app, &flags->connection);
  return [flags] {
    std::string error;
    std::optional<TrainJobTarget> target = parse_trainjob_target(flags->target, &error, true);
    if (!target) {
      std::fprintf(stderr, "error: %s\n", error.c_str());  // exit 1, as kubectl's unknown TYPE
      return static_cast<int>(kExitFailure);
    }
    flags->name = target->name;
    flags->kind = target->kind;
    return run_status(*flags);
  };
}

}  // namespace trainjob
