// `render --target jobset`: the JobSet the Trainer controller would create for a TrainJob,
// for clusters that run the JobSet controller but not the Trainer.
#ifndef TRAINJOB_RENDER_EMIT_EMIT_JOBSET_H_
#define TRAINJOB_RENDER_EMIT_EMIT_JOBSET_H_

#include <vector>

#include "render/compile_state.h"

namespace trainjob {

/// The objects the Trainer creates beside the JobSet (PodGroups, ConfigMaps, Secrets),
/// unchanged, then the JobSet: named like the TrainJob, with the runtime's JobSet spec, the
/// compiled replicated jobs and the TrainJob's suspend. No ownerReference (no TrainJob
/// exists) and no Service or claims (the JobSet controller makes those).
std::vector<Json> emit_jobset(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_EMIT_EMIT_JOBSET_H_
