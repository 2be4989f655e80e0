// `render --gitops-order argocd`: Argo CD sync waves that apply a TrainJob's Jobs in the
// order of the runtime's dependsOn, for GitOps controllers that apply plain Jobs.
#ifndef TRAINJOB_RENDER_GITOPS_ORDER_H_
#define TRAINJOB_RENDER_GITOPS_ORDER_H_

#include <cstdint>
#include <vector>

#include "render/compile_state.h"

namespace trainjob {

/// The sync wave of each replicated job, in order: 0 without dependencies, else the largest
/// of its dependencies' waves, plus one for each dependency on status Complete. Argo CD
/// starts a wave once the earlier ones are healthy, and a Job is healthy only once Complete,
/// so a dependency on Ready (an MPI launcher waiting for its nodes) stays in its
/// dependency's wave: a later wave would wait for the nodes to finish, which they never do
/// before the launcher runs.
std::vector<int64_t> sync_waves(const std::vector<ReplicatedJob>& jobs);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_GITOPS_ORDER_H_
