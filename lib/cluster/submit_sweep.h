// `submit --wait` of an OptimizationJob. Nothing on the cluster runs OptimizationJobs, so the
// plugin drives the search itself (lib/sweep), its trials submitted as TrainJobs: here the
// cluster's part of it, an earlier search's trials, each trial's metrics, what a stop leaves.
#ifndef TRAINJOB_CLUSTER_SUBMIT_SWEEP_H_
#define TRAINJOB_CLUSTER_SUBMIT_SWEEP_H_

#include <functional>
#include <string>

#include "cluster/submit.h"
#include "kube/client.h"
#include "pipeline/render_pipeline.h"
#include "sweep/sweep_driver.h"

namespace trainjob {

/// Plans and runs the search of the OptimizationJob in `rendered`, `connect` adding the
/// cluster's part to the plan; the exit code. The caller's: each trial is the plugin run
/// again, and only its main knows the command line.
using SearchDriver = std::function<int(const RenderResult& rendered,
                                       const std::function<void(SweepDrive*)>& connect)>;

/// Runs the search of the OptimizationJob in `rendered` with `drive`, after clearing what an
/// earlier search left (with --rerun or --replace; without either it does not start): each
/// trial's metrics read from its rank 0's log, a stopped trial's objects deleted, and a stop
/// recorded on what the trials left. The exit code.
int submit_search(KubeClient* client, const std::string& name_space, const RenderResult& rendered,
                  const SubmitOptions& options, const SearchDriver& drive);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_SWEEP_H_
