// Reading the runtime's JobSet template into replicated jobs, with the runtime
// admission rules of Kubeflow Trainer.
#ifndef TRAINJOB_RENDER_RUNTIME_TEMPLATE_H_
#define TRAINJOB_RENDER_RUNTIME_TEMPLATE_H_

#include "render/compile_state.h"

namespace trainjob {

/// Fills state->replicated_jobs, ml_policy, pod_group_policy and jobset_spec from the runtime.
/// False when the runtime cannot be compiled against.
bool read_runtime_template(CompileState* state);

/// Checks that `metadata`, if present, is a mapping whose labels and annotations map
/// strings to strings; reports through `reader`.
bool check_metadata(const FieldReader& reader, const Field& metadata);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_RUNTIME_TEMPLATE_H_
