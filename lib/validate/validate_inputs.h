// `validate`: every check `render` makes, plus the runtimes among the inputs checked on
// their own (a runtime no TrainJob references yet is still checked).
#ifndef TRAINJOB_VALIDATE_VALIDATE_INPUTS_H_
#define TRAINJOB_VALIDATE_VALIDATE_INPUTS_H_

#include "render/render_inputs.h"

namespace trainjob {

/// Checks a TrainingRuntime or ClusterTrainingRuntime by itself: its JobSet template and
/// the Trainer's admission rules for it.
void check_runtime_document(const Document& runtime, Diagnostics* diagnostics);

/// Loads and checks everything; the findings are in `diagnostics`, the inputs (and their
/// texts) in the result.
RenderResult validate_inputs(const RenderRequest& request, const FileSystem& fs,
                             const StdinReader& read_stdin, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_VALIDATE_VALIDATE_INPUTS_H_
