// `kubectl trainjob submit`: render, then server-side apply, all or nothing.
#include "cluster/submit.h"

#include <cstdio>
#include <map>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "input_flags.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "load/file_system.h"
#include "output/render_output.h"
#include "status/sweep/sweep_status.h"
#include "status/trainjob_objects.h"
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
  drive->metrics_after = [session](const TrialResult& trial, BadProgressLines* bad) {
    try {
      return trial_metrics(&session->client(), session->name_space(), trial.name, bad);
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

/// The stop of a search, recorded on what its trials left, so that `status` does not call it
/// Complete.
void record_stop(ClusterSession* session, SweepDrive* drive) {
  drive->record_stop = [session, name = drive->name](const std::string& reason) {
    try {
      record_sweep_stop(&session->client(), session->name_space(), name, reason);
    } catch (const KubeError& e) {
      std::fprintf(stderr, "warning: that the search stopped was not recorded on its trials: %s\n",
                   e.what());
    }
  };
}

/// Before a search: trials an earlier search left would only have their old results read
/// again, so they are deleted with --rerun (--replace too: every trial is run again), and
/// without it the search does not start. False (after saying why) when it must not.
bool clear_earlier_search(ClusterSession* session, const std::string& name, bool rerun) {
  std::string earlier = earlier_sweep_trials(&session->client(), session->name_space(), name);
  if (earlier.empty()) return true;
  if (!rerun) {
    std::fprintf(stderr,
                 "error: OptimizationJob %s: the trials of an earlier search exist (%s), and this "
                 "search would only read their old results again: pass --rerun to delete them "
                 "and run every trial again (`kubectl trainjob status %s` shows them, "
                 "`kubectl trainjob delete %s` removes them); nothing was started\n",
                 name.c_str(), earlier.c_str(), name.c_str(), name.c_str());
    return false;
  }
  std::vector<std::string> deleted =
      delete_sweep_trials(&session->client(), session->name_space(), name);
  std::printf("OptimizationJob %s: %zu trial%s of an earlier search deleted (--rerun)\n",
              name.c_str(), deleted.size(), deleted.size() == 1 ? "" : "s");
  std::fflush(stdout);
  return true;
}

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

/// --dry-run=client: the objects that would be applied, as YAML; with -o name their names,
/// as the server dry run prints them.
int print_plans(const std::vector<SubmitPlan>& plans, const std::string& output) {
  std::vector<const Json*> objects;
  std::string names;
  for (const SubmitPlan& plan : plans) {
    for (const Json& object : plan.objects) {
      objects.push_back(&object);
      names += display_name(object) + "\n";
    }
  }
  std::string text = output == "name" ? names : format_objects(objects, OutputFormat::kYaml);
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
      bool rerun = flags.rerun || flags.replace;
      if (!clear_earlier_search(&session, find_optimization_unit(rendered)->source->name(), rerun))
        return static_cast<int>(kExitFailure);
      return *drive_optimization(inputs, sweep, rendered, [&](SweepDrive* drive) {
        connect_sweep(&session, drive);
        record_stop(&session, drive);
        // Each trial waits until what was deleted is gone, then is created again.
        if (rerun && !flags.rerun) drive->child_argv.push_back("--rerun");
      });
    }
    std::vector<SubmitPlan> plans = plan_submit(rendered, flags.from_files, session.name_space());
    if (flags.wait && plans.size() > 1)
      return usage_error("--wait follows one job, and the inputs hold " +
                         std::to_string(plans.size()) +
                         ": submit them without --wait and follow each with `kubectl trainjob "
                         "status --watch NAME`");
    if (flags.dry_run == "client") return print_plans(plans, flags.output);
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
  add_gang_flag(app, &flags->inputs);
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
