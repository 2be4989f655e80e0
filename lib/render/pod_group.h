// podGroupPolicy: gang scheduling with the coscheduling plugin or Volcano.
#ifndef TRAINJOB_RENDER_POD_GROUP_H_
#define TRAINJOB_RENDER_POD_GROUP_H_

#include "render/compile_state.h"

namespace trainjob {

/// The pod label by which the coscheduling plugin (scheduler-plugins) finds a pod's group.
inline constexpr const char* kCoschedulingPodGroupLabel = "scheduling.x-k8s.io/pod-group";
/// The pod annotation by which Volcano finds a pod's group.
inline constexpr const char* kVolcanoGroupNameAnnotation = "scheduling.k8s.io/group-name";

/// Labels or annotates every pod template and adds the PodGroup object. False on error.
/// Must run after the jobs are sized and before spec.trainer changes resources: upstream
/// sums the runtime's requests, not resourcesPerNode.
bool apply_pod_group_policy(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POD_GROUP_H_
