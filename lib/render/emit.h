// The final objects: what JobSet would create for the compiled replicated jobs.
#ifndef TRAINJOB_RENDER_EMIT_H_
#define TRAINJOB_RENDER_EMIT_H_

#include <vector>

#include "render/compile_state.h"

namespace trainjob {

/// Service (when DNS hostnames are on), PodGroups, then one Job per replica of every
/// replicated job, in the runtime's order. Warns about JobSet features plain Jobs lack.
std::vector<Json> emit_objects(CompileState* state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_EMIT_H_
