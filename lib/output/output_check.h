// `render --check`: is DIR what `render --output-dir DIR` would leave there?
#ifndef TRAINJOB_OUTPUT_OUTPUT_CHECK_H_
#define TRAINJOB_OUTPUT_OUTPUT_CHECK_H_

#include <string>

#include "diag/diagnostic.h"
#include "output/output_dir.h"

namespace trainjob {

/// Compares `dir` with `files` byte for byte and changes nothing. Every difference is an
/// error naming its file: a file whose contents differ (its unified diff, `a/<name>` as
/// it is, `b/<name>` as render writes it, is appended to `*diffs`), a file render writes
/// that is missing, and each other `*.yaml`/`*.json` in `dir` as stale (saying whether
/// `--prune` would remove it). The manifest `.kubectl-trainjob` is bookkeeping and is
/// not compared. A missing `dir` is all files missing. True when nothing differs.
bool check_output_files(const std::string& dir, const OutputFiles& files, std::string* diffs,
                        Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_OUTPUT_CHECK_H_
