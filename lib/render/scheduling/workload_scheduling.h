// Kubernetes' own gang scheduling, with nothing installed: the runtime's spec.scheduling
// (KEP-3015, Trainer's Workload-aware scheduling) or --gang, compiled into the Workload API
// of Kubernetes 1.37 (scheduling.k8s.io/v1beta1) without a controller.
#ifndef TRAINJOB_RENDER_SCHEDULING_WORKLOAD_SCHEDULING_H_
#define TRAINJOB_RENDER_SCHEDULING_WORKLOAD_SCHEDULING_H_

#include "render/compile_state.h"

namespace trainjob {

/// Reads and checks spec.scheduling (--gang reads as `spec.scheduling: {}`), groups the
/// jobs as its three levels say, and gives each group its policy. When every group is one
/// Job, that Job gets it as its own spec.scheduling, and the Job controller makes the
/// Workload and PodGroup (gate WorkloadWithJob) and deletes them with the Job; otherwise one
/// Workload with a PodGroupTemplate per group, a PodGroup per template, and
/// spec.schedulingGroup on the pod templates (gate GenericWorkload). A gang's minCount is
/// the number of pods the group has. False on error. Runs once the jobs are sized.
bool apply_workload_scheduling(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_SCHEDULING_WORKLOAD_SCHEDULING_H_
