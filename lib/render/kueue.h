// Kueue's batch/Job integration: the queue labels a TrainJob carries, passed on to its Jobs.
#ifndef TRAINJOB_RENDER_KUEUE_H_
#define TRAINJOB_RENDER_KUEUE_H_

#include "model/vocabulary.h"
#include "render/compile_state.h"

namespace trainjob {

/// The TrainJob's Kueue labels (queue name, workload priority class) that every Job gets,
/// so Kueue admits each Job; an empty object when it has none.
Json kueue_job_labels(const CompileState& state);

/// A suspended TrainJob without a queue label: nothing will ever unsuspend its Jobs.
void warn_suspended_without_queue(const CompileState& state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_KUEUE_H_
