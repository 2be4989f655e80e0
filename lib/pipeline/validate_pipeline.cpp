#include "pipeline/validate_pipeline.h"

namespace trainjob {

RenderRequest validate_request(const RenderRequest& request) {
  RenderRequest checks = request;
  // What a plain `render` of the same inputs sets: validate speaks for the render (or the
  // GitOps controller applying its output) that follows it.
  checks.compile.warn_gitops_traps = true;
  checks.sweep.check_only = true;
  checks.check_runtimes = true;
  checks.compile.keep_objects = false;  // each document's, as soon as they are compiled
  return checks;
}

RenderResult validate_inputs(const RenderRequest& request, const FileSystem& fs,
                             const StdinReader& read_stdin, Diagnostics* diagnostics) {
  return render_inputs(validate_request(request), fs, read_stdin, diagnostics);
}

}  // namespace trainjob
