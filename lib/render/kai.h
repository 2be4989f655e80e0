// KAI Scheduler's gang for the Jobs render makes of one TrainJob or legacy job. KAI's pod
// grouper groups pods by their top owner: a PyTorchJob's or a JobSet's pods make one gang,
// but a plain batch/v1 Job with no owner is grouped pod by pod (minMember 1), so the Jobs
// render emits would be scheduled one pod at a time. KAI (v0.15.0 on) also takes a PodGroup
// made outside its pod grouper: render emits that PodGroup, joins every pod to it by the
// pod-group-name annotation, and keeps the pod grouper off with skip-podgrouper.
#ifndef TRAINJOB_RENDER_KAI_H_
#define TRAINJOB_RENDER_KAI_H_

#include <cstdint>
#include <string>

#include "load/json.h"
#include "render/compile_state.h"

namespace trainjob {

struct KaiGang {
  std::string job;             ///< the TrainJob's or legacy job's name: the ownership labels
  std::string name;            ///< the PodGroup's: the job's, or the job's and its stage's
  std::string name_space;      ///< may be empty
  std::string queue;           ///< the kai.scheduler/queue label's value, or KAI's default queue
  std::string priority_class;  ///< a pod template's priorityClassName, or empty
  int64_t min_member = 1;
};

/// True when a pod spec names KAI Scheduler.
bool names_kai(const Json& pod_spec);
/// The KAI queue label of `labels` (an object or null), or empty.
std::string kai_queue_label(const Json& labels);
/// The PodGroup (scheduling.run.ai/v2alpha2) of the gang.
Json kai_pod_group(const KaiGang& gang);
/// The queue label, the pod-group-name and skip-podgrouper annotations on a pod template.
void kai_join_pod(const KaiGang& gang, Json* pod_template);
/// skip-podgrouper on a Job's metadata: KAI reads it on any owner of the pod.
void kai_mark_job(Json* job_metadata);

/// The TrainJob's step: when a pod template names kai-scheduler, every pod joins a KAI
/// PodGroup of every pod that starts with it: one PodGroup `T` of every pod of every job, or,
/// when the runtime orders its jobs by dependsOn, one `T-stage-N` per start-up stage. Warns
/// where the queue label is set but no pod goes to KAI, and where podGroupPolicy makes a
/// PodGroup that KAI does not read.
void apply_kai_gang(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_KAI_H_
