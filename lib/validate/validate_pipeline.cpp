#include "validate/validate_pipeline.h"

namespace trainjob {

RenderResult validate_inputs(const RenderRequest& request, const FileSystem& fs,
                             const StdinReader& read_stdin, Diagnostics* diagnostics) {
  RenderRequest checks = request;
  checks.compile.check_only = true;
  checks.check_runtimes = true;
  return render_inputs(checks, fs, read_stdin, diagnostics);
}

}  // namespace trainjob
