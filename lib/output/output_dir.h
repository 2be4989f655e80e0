// `render --output-dir DIR`: a set of files put into DIR all or nothing.
#ifndef TRAINJOB_OUTPUT_OUTPUT_DIR_H_
#define TRAINJOB_OUTPUT_OUTPUT_DIR_H_

#include <map>
#include <string>

#include "diag/diagnostic.h"

namespace trainjob {

/// File name (one path element) -> contents.
using OutputFiles = std::map<std::string, std::string>;

struct OutputDirOptions {
  /// Also remove the files an earlier write put into DIR that `files` no longer holds
  /// (see output_manifest.h for how they are known).
  bool prune = false;
};

/// Puts `files` into `dir`, creating it and its missing parents. Every target name is
/// checked first (missing, or a regular file to replace); every file is then written into
/// a staging directory inside `dir` and only then renamed into place, existing files kept
/// aside as hard links until all are in. On any error `dir` is left as it was (directories
/// this call created are removed again) and the error is added to `diagnostics`. The
/// manifest `.kubectl-trainjob` is rewritten in the same step. Other entries of `dir` are
/// never touched, except, with `options.prune`, files the manifest says we wrote, which
/// are moved into the staging directory with the rest and put back on failure.
bool write_output_files(const std::string& dir, const OutputFiles& files,
                        const OutputDirOptions& options, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_OUTPUT_DIR_H_
