// podGroupPolicy: gang scheduling with the coscheduling plugin or Volcano.
#ifndef TRAINJOB_RENDER_POD_GROUP_H_
#define TRAINJOB_RENDER_POD_GROUP_H_

#include "model/vocabulary.h"
#include "render/compile_state.h"

namespace trainjob {

/// Labels or annotates every pod template and adds the PodGroup object. False on error.
/// Must run after the jobs are sized and before spec.trainer changes resources: upstream
/// sums the runtime's requests, not resourcesPerNode.
bool apply_pod_group_policy(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POD_GROUP_H_
