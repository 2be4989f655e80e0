// `kubectl trainjob resume|suspend NAME`: spec.suspend of the TrainJob's Jobs.
#include "cluster/suspend.h"

#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"

namespace trainjob {
namespace {

struct SuspendFlags {
  ConnectionFlags connection;
  std::vector<std::string> target;  ///< NAME, TYPE/NAME or TYPE NAME
};

CommandRunner declare_suspend_switch(CLI::App* app, bool suspend) {
  auto flags = std::make_shared<SuspendFlags>();
  app->footer(
      "Sets spec.suspend of every Job of the TrainJob, as TrainJob.spec.suspend does upstream:\n"
      "a suspended Job's pods are deleted and its activeDeadlineSeconds clock stops; resumed,\n"
      "it starts them again. Jobs in a Kueue queue (label kueue.x-k8s.io/queue-name) are\n"
      "left alone: Kueue admits and suspends them.");
  add_target_arguments(app, &flags->target);
  add_cluster_flags(app, &flags->connection);
  return [flags, suspend] {
    std::optional<TrainJobTarget> target = target_of(flags->target);
    if (!target) return static_cast<int>(kExitFailure);
    return run_target_command(flags->connection, target->kind, [&](ClusterSession& session) {
      return set_trainjob_suspended(&session.client(), session.name_space(), target->name, suspend,
                                    stdout, stderr);
    });
  };
}

}  // namespace

CommandRunner declare_resume(CLI::App* app) {
  return declare_suspend_switch(app, false);
}
CommandRunner declare_suspend(CLI::App* app) {
  return declare_suspend_switch(app, true);
}

}  // namespace trainjob
