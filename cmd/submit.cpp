// `kubectl trainjob submit`: render, then server-side apply, all or nothing.
#include "cluster/submit.h"

#include <cstdio>
#include <memory>

#include "cluster/sweep_status.h"
#include "cluster/trainjob_objects.h"
#include "cluster_flags.h"
#include "command.h"
#include "input_flags.h"
#include "kube/kube_error.h"
#include "load/file_system.h"
#include "output/render_output.h"
#include "sweep/sweep_plan.h"
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

/// What the search needs from the cluster: each trial's metrics from its rank 0's log
/// (submit --wait does not print them), and a stopped trial's objects deleted.
void connect_sweep(ClusterSession* session, SweepDrive* drive) {
  drive->metrics_after = [session](const TrialResult& trial) {
    try {
      return trial_metrics(&session->client(), session->name_space(), trial.name);
    } catch (const KubeError& e) {
      std::fprintf(stderr, "warning: %s: its metrics could not be read: %s\n", trial.name.c_str(),
                   e.what());
      return NamedValues{};
    }
  };
  drive->clean_up = [session](const TrialResult& trial) {
    try {
      delete_trainjob(&session->client(), session->name_space(), trial.name, [](const Json&) {});
    } catch (const KubeError& e) {
      std::fprintf(stderr, "warning: %s was not deleted: %s\n", trial.name.c_str(), e.what());
    }
  };
}

/// --dry-run=client: the objects that would be applied, as YAML.
int print_plans(const std::vector<SubmitPlan>& plans) {
  std::vector<const Json*> objects;
  for (const SubmitPlan& plan : plans)
    for (const Json& object : plan.objects)
      objects.push_back(&object);
  std::string text = format_objects(objects, OutputFormat::kYaml);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
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
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    InputFlags inputs = flags.inputs;
    inputs.name_space = session.name_space();
    std::optional<RenderRequest> request = make_request(inputs);
    if (!request) return static_cast<int>(kExitUsage);
    request->config_map_from_files = !flags.from_files.empty();
    // The session's namespace may be the context's; only -n makes a mismatch an error.
    request->namespace_from_flag = !flags.connection.name_space.empty();
    request->cluster_runtimes = runtimes_from_cluster(flags.runtimes_from_cluster, &session);
    // Secrets a policy needs (SSH keys) are generated; submit creates them only when absent.
    request->compile.generate_secrets = true;
    SweepFlags sweep = flags.sweep;
    pick_seed(inputs, &sweep, &*request);
    RealFileSystem fs;
    Diagnostics diagnostics;
    RenderResult rendered = render_inputs(*request, fs, read_all_stdin, &diagnostics);
    int checked = report_diagnostics(&diagnostics);
    if (checked != kExitOk) return checked;
    report_cluster_runtimes(rendered, request->cluster_runtimes);
    bool search = inputs.trial == 0 && find_optimization_unit(rendered) != nullptr;
    if (search && flags.dry_run == "none") {
      if (!flags.wait)
        return usage_error(
            "an OptimizationJob's trials are started by this command as others end (nothing on "
            "the cluster runs OptimizationJobs): pass --wait to run the search, or --trial K to "
            "submit one trial");
      return *drive_optimization(inputs, sweep, rendered,
                                 [&](SweepDrive* drive) { connect_sweep(&session, drive); });
    }
    std::vector<SubmitPlan> plans = plan_submit(rendered, flags.from_files, session.name_space());
    if (flags.wait && plans.size() > 1)
      return usage_error("--wait follows one job, and the inputs hold " +
                         std::to_string(plans.size()) +
                         ": submit them without --wait and follow each with `kubectl trainjob "
                         "status --watch NAME`");
    if (flags.dry_run == "client") return print_plans(plans);
    SubmitOptions options{flags.dry_run == "server", flags.wait,    *timeout,
                          flags.keep_on_error,       flags.replace, flags.rerun,
                          flags.output == "name"};
    options.progress_deadline_seconds = *progress_deadline;
    options.force_conflicts = flags.force_conflicts;
    // As kubectl apply -f: every job is submitted, a failed one does not stop the others.
    int code = kExitOk;
    for (const SubmitPlan& plan : plans) {
      Submitter submitter(&session.client(), &session.clock(), stdout, stderr);
      if (submitter.submit(plan, options) != kExitOk) code = kExitFailure;
    }
    return code;
  });
}

}  // namespace

CommandRunner declare_submit(CLI::App* app) {
  auto flags = std::make_shared<SubmitFlags>();
  add_input_flags(app, &flags->inputs, /*declare_namespace=*/false);
  app->add_option("--dry-run", flags->dry_run,
                  "none: apply; client: print what would be applied; server: ask the server to "
                  "check every object and change nothing")
      ->check(CLI::IsMember({"none", "client", "server"}))
      ->capture_default_str();
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
  return [flags] { return run_submit(*flags); };
}

}  // namespace trainjob
