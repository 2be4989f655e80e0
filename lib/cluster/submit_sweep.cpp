#include "cluster/submit_sweep.h"

#include <cstdio>
#include <vector>

#include "kube/kube_error.h"
#include "status/sweep_status.h"
#include "status/trainjob_objects.h"
#include "sweep/sweep_plan.h"

namespace trainjob {
namespace {

/// What the search needs from the cluster: each trial's metrics from its rank 0's log
/// (submit --wait does not print them), and a stopped trial's objects deleted.
void connect_sweep(KubeClient* client, const std::string& name_space, SweepDrive* drive) {
  drive->metrics_after = [client, name_space](const TrialResult& trial, BadProgressLines* bad) {
    try {
      return trial_metrics(client, name_space, trial.name, bad);
    } catch (const KubeError& e) {
      std::fprintf(stderr, "warning: %s: its metrics could not be read: %s\n", trial.name.c_str(),
                   e.what());
      return NamedValues{};
    }
  };
  drive->clean_up = [client, name_space](const TrialResult& trial) {
    try {
      delete_trainjob(client, name_space, trial.name, [](const Json&) {});
    } catch (const KubeError& e) {
      std::fprintf(stderr, "warning: %s was not deleted: %s\n", trial.name.c_str(), e.what());
    }
  };
}

/// The stop of a search, recorded on what its trials left, so that `status` does not call it
/// Complete.
void record_stop(KubeClient* client, const std::string& name_space, SweepDrive* drive) {
  drive->record_stop = [client, name_space, name = drive->name](const std::string& reason) {
    try {
      record_sweep_stop(client, name_space, name, reason);
    } catch (const KubeError& e) {
      std::fprintf(stderr, "warning: that the search stopped was not recorded on its trials: %s\n",
                   e.what());
    }
  };
}

/// Before a search: trials an earlier search left would only have their old results read
/// again, so they are deleted with --rerun (--replace too: every trial is run again), and
/// without it the search does not start. False (after saying why) when it must not.
bool clear_earlier_search(KubeClient* client, const std::string& name_space,
                          const std::string& name, bool rerun) {
  std::string earlier = earlier_sweep_trials(client, name_space, name);
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
  std::vector<std::string> deleted = delete_sweep_trials(client, name_space, name);
  std::printf("OptimizationJob %s: %zu trial%s of an earlier search deleted (--rerun)\n",
              name.c_str(), deleted.size(), deleted.size() == 1 ? "" : "s");
  std::fflush(stdout);
  return true;
}

}  // namespace

int submit_search(KubeClient* client, const std::string& name_space, const RenderResult& rendered,
                  const SubmitOptions& options, const SearchDriver& drive) {
  bool rerun = options.rerun || options.replace;
  if (!clear_earlier_search(client, name_space, find_optimization_unit(rendered)->source->name(),
                            rerun))
    return 1;
  return drive(rendered, [&](SweepDrive* search) {
    connect_sweep(client, name_space, search);
    record_stop(client, name_space, search);
    // Each trial waits until what was deleted is gone, then is created again.
    if (rerun && !options.rerun) search->child_argv.push_back("--rerun");
  });
}

}  // namespace trainjob
