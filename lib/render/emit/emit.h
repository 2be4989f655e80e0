// The final objects: what JobSet would create for the compiled replicated jobs.
#ifndef TRAINJOB_RENDER_EMIT_EMIT_H_
#define TRAINJOB_RENDER_EMIT_EMIT_H_

#include <vector>

#include "render/compile_state.h"

namespace trainjob {

/// Service (when DNS hostnames are on), PodGroups, then one Job per replica of every
/// replicated job, in the runtime's order.
std::vector<Json> emit_objects(CompileState* state);
/// Warns about the JobSet features of the runtime that plain Jobs lack.
void warn_jobset_features(const CompileState& state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_EMIT_EMIT_H_
