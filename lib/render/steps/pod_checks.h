// The compiled pod templates checked as the API server and the kubelet will read them:
// what spec.trainer and the runtime leave in each container, whichever of the two wrote
// it, so that a TrainJob whose Jobs would be refused, or whose pods would all fail, is not
// "no problems found".
#ifndef TRAINJOB_RENDER_STEPS_POD_CHECKS_H_
#define TRAINJOB_RENDER_STEPS_POD_CHECKS_H_

#include "render/compile_state.h"

namespace trainjob {

/// Errors for a container (init containers too) with no image or one that is no image
/// reference, and for a request above its limit; a warning for a torchrun `--nnodes` in
/// the trainer's `node` container that is not the trainer job's node count. Each is
/// reported at the TrainJob field that wrote the value, else at spec.trainer (the trainer's
/// `node` container) or spec.runtimeRef, naming the runtime, replicated job and container.
/// Runs once spec.trainer, the policy's env and torchtune are applied. False on any error.
bool check_pod_templates(const CompileState& state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_POD_CHECKS_H_
