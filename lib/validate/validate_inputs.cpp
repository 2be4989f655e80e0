#include "validate/validate_inputs.h"

#include "model/trainjob.h"
#include "render/compile_state.h"
#include "render/ml_policy.h"
#include "render/runtime_template.h"

namespace trainjob {

void check_runtime_document(const Document& runtime, Diagnostics* diagnostics) {
  FieldReader reader(runtime, diagnostics);
  const TrainJob no_trainjob;  // nothing is compiled: the runtime's own rules only
  CompileState state(no_trainjob, reader, reader, dialect_info(Dialect::kV2_1));
  read_runtime_template(&state);  // sets ml_policy even when the template has problems
  check_ml_policy(state, /*compiling=*/false);
}

RenderResult validate_inputs(const RenderRequest& request, const FileSystem& fs,
                             const StdinReader& read_stdin, Diagnostics* diagnostics) {
  RenderRequest checks = request;
  checks.compile.check_only = true;
  RenderResult result = render_inputs(checks, fs, read_stdin, diagnostics);
  for (const Document& document : result.documents) {
    // Problems a TrainJob's compile already found here are said once (Diagnostics::sort).
    if (is_runtime_document(document)) check_runtime_document(document, diagnostics);
  }
  return result;
}

}  // namespace trainjob
