// Kueue's batch/Job integration for a TrainJob: its queue labels on each Job
// (model/kueue_labels.h holds what the legacy kinds share), or on the JobSet.
#ifndef TRAINJOB_RENDER_SCHEDULING_KUEUE_H_
#define TRAINJOB_RENDER_SCHEDULING_KUEUE_H_

#include "model/kueue_labels.h"
#include "model/vocabulary.h"
#include "render/compile_state.h"

namespace trainjob {

/// The TrainJob's Kueue labels (queue name, workload priority class) that every Job gets,
/// so Kueue admits each Job; an empty object when it has none.
Json kueue_job_labels(const CompileState& state);

/// A suspended TrainJob without a queue label: nothing will ever unsuspend its Jobs.
void warn_suspended_without_queue(const CompileState& state);

/// Under --target jobs, refuses a TrainJob in a Kueue queue whose Jobs that run together
/// (all but the initializers others wait to complete) are more than one, with the fix
/// --target jobset (refuse_queued_jobs_admitted_apart).
void refuse_queued_jobs_apart(const CompileState& state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_SCHEDULING_KUEUE_H_
