// `validate`: every check `render` makes, plus the runtimes among the inputs checked on
// their own (a runtime no TrainJob references yet is still checked). It is render's own
// pipeline, compile included, with the objects dropped: there is no second list of checks
// that could fall behind render's (tests/e2e/render/validate_covers_render_test.sh holds it
// to that).
#ifndef TRAINJOB_PIPELINE_VALIDATE_PIPELINE_H_
#define TRAINJOB_PIPELINE_VALIDATE_PIPELINE_H_

#include "pipeline/render_pipeline.h"

namespace trainjob {

/// `request` as validate runs it: as a plain `render` would, objects dropped.
RenderRequest validate_request(const RenderRequest& request);

/// Loads and checks everything; the findings are in `diagnostics`, the inputs (and their
/// texts) in the result.
RenderResult validate_inputs(const RenderRequest& request, const FileSystem& fs,
                             const StdinReader& read_stdin, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_VALIDATE_PIPELINE_H_
