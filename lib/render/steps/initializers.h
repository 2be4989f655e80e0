// spec.initializer: the dataset and model initializer jobs of a runtime.
#ifndef TRAINJOB_RENDER_STEPS_INITIALIZERS_H_
#define TRAINJOB_RENDER_STEPS_INITIALIZERS_H_

#include "render/compile_state.h"

namespace trainjob {

/// Checks spec.initializer against the runtime and sets STORAGE_URI, env and the secret
/// of each configured initializer container. False on any error.
bool apply_initializers(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_INITIALIZERS_H_
