// `kubectl trainjob delete`: every object `submit` applied for the TrainJob, pods included.
#include <cstdio>
#include <memory>

#include "cluster/trainjob_objects.h"
#include "cluster_flags.h"
#include "command.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "util/duration.h"

namespace trainjob {
namespace {

struct DeleteFlags {
  ConnectionFlags connection;
  std::string name;
  bool wait = false;
  std::string timeout = "0";
  std::string output;
};

int run_delete(const DeleteFlags& flags) {
  std::optional<double> timeout = parse_duration(flags.timeout);
  if (!timeout)
    return usage_error("--timeout: expected a duration such as 5m, found \"" + flags.timeout +
                       "\"");
  return run_cluster_command([&] {
    ClusterSession session(flags.connection);
    KubeClient& client = session.client();
    delete_trainjob(&client, session.name_space(), flags.name, [&](const Json& object) {
      if (flags.output == "name") {
        std::printf("%s\n", display_name(object).c_str());
      } else {
        std::printf("%s \"%s\" deleted\n", resource_type_of(object).qualified_kind().c_str(),
                    name_of(object).c_str());
      }
    });
    std::fflush(stdout);
    if (flags.wait &&
        !wait_until_gone(&client, session.clock(), session.name_space(), flags.name, *timeout))
      throw KubeError("timed out waiting for the objects and pods of TrainJob " + flags.name +
                      " to go");
    return static_cast<int>(kExitOk);
  });
}

}  // namespace

CommandRunner declare_delete(CLI::App* app) {
  auto flags = std::make_shared<DeleteFlags>();
  app->footer(
      "Deletes what `submit` applied for the TrainJob and nothing else: its Jobs (their pods\n"
      "go with them), PodGroups, Service, ConfigMaps and Secrets, and any other kind that was\n"
      "among the inputs, all found by the labels trainer.kubeflow.org/trainjob-name=NAME and\n"
      "kubectl-trainjob/created-by-submit=true. Objects you made yourself with only the\n"
      "TrainJob's label are left alone.");
  app->add_option("NAME", flags->name, "The TrainJob")->required()->type_name("TRAINJOB");
  app->add_flag("--wait", flags->wait, "Return only once every object and pod is gone");
  app->add_option("--timeout", flags->timeout, "With --wait: give up after this long (0: never)")
      ->type_name("DURATION")
      ->capture_default_str();
  app->add_option("-o,--output", flags->output, "name: print only kind.group/name of each object")
      ->check(CLI::IsMember({"name"}));
  add_cluster_flags(app, &flags->connection);
  return [flags] { return run_delete(*flags); };
}

}  // namespace trainjob
