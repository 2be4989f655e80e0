// `submit` as one call: its parsed flags in, its exit code out. The inputs are rendered
// against the cluster's runtimes, then each job is applied (or printed, with
// --dry-run=client), or an OptimizationJob's search is run.
#ifndef TRAINJOB_CLUSTER_SUBMIT_COMMAND_H_
#define TRAINJOB_CLUSTER_SUBMIT_COMMAND_H_

#include <string>
#include <vector>

#include "cluster/submit.h"
#include "cluster/submit_sweep.h"
#include "kube/client.h"
#include "kube/environment.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

struct SubmitRequest {
  /// The inputs, with the namespace of -n or of the context; the cluster's runtimes and the
  /// generated Secrets are added by submit_inputs.
  RenderRequest render;
  std::string runtimes_from_cluster = "auto";  ///< --runtimes-from-cluster: auto, true, false
  std::vector<std::string> from_files;         ///< --from-file
  bool client_dry_run = false;                 ///< --dry-run=client: print, apply nothing
  SubmitOptions options;                       ///< the rest of the flags, for each job
  StdinReader read_stdin;                      ///< `-f -`
  SearchDriver drive_search;                   ///< runs an OptimizationJob's search
};

/// Runs `submit` through `client`: as kubectl apply -f, every job is submitted, and a failed
/// one does not stop the others. The exit code: 0, or 1 after saying why. When the inputs
/// rule out what the flags ask (an OptimizationJob without --wait, --wait over several jobs),
/// nothing is done and `*usage` says why, for the caller to report as a usage error.
int submit_inputs(SubmitRequest request, KubeClient* client, const Clock* clock,
                  std::string* usage);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_COMMAND_H_
