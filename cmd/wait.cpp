// `kubectl trainjob wait`: kubectl wait's --for and --timeout for a TrainJob, for scripts.
#include <cstdio>
#include <functional>
#include <memory>

#include "cluster/job_wait.h"
#include "cluster_flags.h"
#include "command.h"
#include "util/duration.h"

namespace trainjob {
namespace {

struct WaitFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME, TYPE/NAME or TYPE NAME
  std::string for_condition;
  std::string timeout = "30s";
  bool restart = false;
};

/// kubectl's --timeout: a duration; 0 looks once; a negative one waits without end.
std::optional<double> wait_timeout(const std::string& text) {
  bool negative = !text.empty() && text[0] == '-';
  std::optional<double> seconds = parse_duration(negative ? text.substr(1) : text);
  if (seconds && negative) return -1.0;
  return seconds;
}

int run_wait(const WaitFlags& flags) {
  std::optional<double> timeout = wait_timeout(flags.timeout);
  if (!timeout)
    return usage_error("--timeout: expected a duration such as 30s or 5m, found \"" +
                       flags.timeout + "\"");
  std::string error;
  std::optional<WaitCondition> condition = parse_wait_for(flags.for_condition, &error);
  if (!condition) return usage_error(error);
  std::optional<TrainJobTarget> target = target_of(flags.target);
  if (!target) return static_cast<int>(kExitFailure);
  return run_target_command(flags.connection, target->kind, [&](ClusterSession& session) {
    std::function<void(const std::string&)> on_restart;
    if (flags.restart)
      on_restart = [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
      };
    WaitResult result = wait_for_trainjob(&session.client(), session.clock(), session.name_space(),
                                          target->name, *condition, *timeout, on_restart);
    if (!result.out.empty()) std::printf("%s\n", result.out.c_str());
    if (!result.err.empty()) std::fprintf(stderr, "%s\n", result.err.c_str());
    return result.exit_code;
  });
}

}  // namespace

CommandRunner declare_wait(CLI::App* app) {
  auto flags = std::make_shared<WaitFlags>();
  app->footer(
      "As kubectl wait: prints trainjob.trainer.kubeflow.org/NAME condition met and exits 0,\n"
      "or exits 1 with `error: timed out waiting for the condition on trainjobs/NAME`. The\n"
      "conditions are those `status -o yaml` shows (Complete, Failed, Suspended), read as\n"
      "`status` reads them. Waiting for Complete on a TrainJob that failed (or for Failed on one\n"
      "that completed) ends at once with exit 1, saying so. --for=delete waits until every\n"
      "object and pod of the TrainJob is gone (exit 0 at once when there is none).\n"
      "--restart does what `submit --wait` does for a runtime's JobSet failurePolicy.maxRestarts\n"
      "(the Jobs' kubectl-trainjob/max-restarts annotation): when a Job fails while restarts are\n"
      "left, every Job is deleted and created again with the next\n"
      "jobset.sigs.k8s.io/restart-attempt, saying which pod failed, and the wait goes on.\n"
      "Examples:\n"
      "  kubectl trainjob wait mnist --for=condition=Complete --timeout=1h\n"
      "  kubectl trainjob wait mnist --for=condition=Complete --restart --timeout=-1s\n"
      "  kubectl trainjob wait pytorchjob/demo --for=jsonpath='{.status.phase}'=Running");
  add_target_arguments(app, &flags->target);
  app->add_option("--for", flags->for_condition,
                  "condition=Complete|Failed|Suspended[=STATUS], delete, create, or "
                  "jsonpath={PATH}[=VALUE] on the object `status -o json` prints")
      ->type_name("CONDITION")
      ->required();
  app->add_option("--timeout", flags->timeout,
                  "Give up after this long (0: look once; negative: never give up)")
      ->type_name("DURATION")
      ->capture_default_str();
  app->add_flag("--restart", flags->restart,
                "Restart the whole TrainJob when a Job fails, up to its runtime's "
                "failurePolicy.maxRestarts, as submit --wait does");
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_wait(*flags); };
}

}  // namespace trainjob
