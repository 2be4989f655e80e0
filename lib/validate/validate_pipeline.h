// `validate`: every check `render` makes, plus the runtimes among the inputs checked on
// their own (a runtime no TrainJob references yet is still checked).
#ifndef TRAINJOB_VALIDATE_VALIDATE_PIPELINE_H_
#define TRAINJOB_VALIDATE_VALIDATE_PIPELINE_H_

#include "pipeline/render_pipeline.h"

namespace trainjob {

/// Loads and checks everything; the findings are in `diagnostics`, the inputs (and their
/// texts) in the result.
RenderResult validate_inputs(const RenderRequest& request, const FileSystem& fs,
                             const StdinReader& read_stdin, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_VALIDATE_VALIDATE_PIPELINE_H_
