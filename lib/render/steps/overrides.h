// podSpecOverrides / podTemplateOverrides / runtimePatches: checked against the runtime
// as the Trainer's admission webhook does, then merged into the pod templates.
#ifndef TRAINJOB_RENDER_STEPS_OVERRIDES_H_
#define TRAINJOB_RENDER_STEPS_OVERRIDES_H_

#include "render/compile_state.h"

namespace trainjob {

/// Applies state->trainjob.overrides in order (a later override wins). False on any error.
bool apply_overrides(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_OVERRIDES_H_
