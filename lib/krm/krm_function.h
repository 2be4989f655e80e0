// `kubectl trainjob krm`: the render as a KRM function (kpt) and as a legacy exec
// transformer plugin (kustomize). TrainJobs and v1 jobs are replaced by the objects they
// compile to, runtimes are consumed, every other resource passes through.
#ifndef TRAINJOB_KRM_KRM_FUNCTION_H_
#define TRAINJOB_KRM_KRM_FUNCTION_H_

#include <string>

#include "diag/diagnostic.h"
#include "load/file_system.h"

namespace trainjob {

struct KrmRequest {
  std::string input;  ///< standard input, whole
  /// The plugin configuration file kustomize passes as the first argument; set, it selects
  /// the exec plugin form.
  std::string config_path;
};

/// Runs the function and returns what goes to standard output.
///
/// A ResourceList on input (and no config_path) is the KRM form: the output is a
/// ResourceList whose items are the transformed resources, each rendered object placed in
/// its TrainJob's file (see docs/krm.md), and whose results are the diagnostics; on an
/// error its items are the input's, unchanged.
///
/// Anything else is the exec plugin form: a YAML stream in, the transformed stream out,
/// options from the file at config_path; on an error the output is empty.
///
/// Every finding is also added to `diagnostics` (sorted), for standard error.
std::string run_krm_function(const KrmRequest& request, const FileSystem& fs,
                             Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_KRM_KRM_FUNCTION_H_
