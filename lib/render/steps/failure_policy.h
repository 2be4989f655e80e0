// JobSet's failurePolicy on plain Jobs: maxRestarts travels on every Job as an annotation, and
// the client that waits restarts the whole TrainJob (cluster/job_restart.h); the rest of the
// policy is a controller's and is reported as not applied.
#ifndef TRAINJOB_RENDER_STEPS_FAILURE_POLICY_H_
#define TRAINJOB_RENDER_STEPS_FAILURE_POLICY_H_

#include <cstdint>

#include "load/json.h"
#include "render/compile_state.h"

namespace trainjob {

/// failurePolicy.maxRestarts of the runtime's JobSet spec; 0 when there is none.
int64_t jobset_max_restarts(const Json& jobset_spec);
/// Puts kubectl-trainjob/max-restarts on a Job's metadata when maxRestarts is above 0.
void annotate_max_restarts(const CompileState& state, Json* metadata);
/// Says what of failurePolicy `submit --wait` and `wait --restart` apply, and what not.
void warn_failure_policy(const CompileState& state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_FAILURE_POLICY_H_
