// The record `render --output-dir` keeps of the files it wrote, so that `--prune` removes
// only those. A file's name alone cannot tell: an object passed through unchanged (a
// ConfigMap beside the TrainJobs) carries no label of ours, and a user may keep a file
// named like one of ours. So DIR holds `.kubectl-trainjob`, in `sha256sum` format (one
// `<sha256>  <name>` line per file written), and a file is ours when it is listed there
// and still has the contents we wrote: a file edited since is kept.
#ifndef TRAINJOB_OUTPUT_OUTPUT_MANIFEST_H_
#define TRAINJOB_OUTPUT_OUTPUT_MANIFEST_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "crypto/digest.h"
#include "diag/diagnostic.h"
#include "output/output_dir.h"

namespace trainjob {

inline constexpr const char* kManifestName = ".kubectl-trainjob";

/// File name -> lower-case hex SHA-256 of the contents written.
using Manifest = std::map<std::string, std::string>;

/// The manifest's text: sorted `<sha256>  <name>` lines, which `sha256sum -c` reads.
std::string format_manifest(const Manifest& manifest);
/// Reads a manifest; a line that is not `<64 hex>  <name>.yaml|json` is skipped with a
/// warning at `path:line` (skipping only ever keeps a file, never removes one).
Manifest parse_manifest(std::string_view text, const std::string& path, Diagnostics* diagnostics);

enum class EntryKind { kMissing, kFile, kOther };
/// What `name` in the directory `dir_fd` is, without following a symlink; a regular
/// file's contents go to `*contents`. kOther also for a file that cannot be read.
EntryKind read_entry(int dir_fd, const std::string& name, std::string* contents);

/// Which of the files a manifest lists are still ours once `files` are written.
struct ManifestReview {
  Manifest current;                 ///< listed, present and unchanged
  std::vector<std::string> stale;   ///< of `current`, those `files` no longer holds
  std::vector<std::string> edited;  ///< listed, not in `files`, changed since written
};
/// Reviews the manifest in `dir_fd` (none there: nothing is ours) against `files`.
ManifestReview review_manifest(int dir_fd, const std::string& dir, const OutputFiles& files,
                               Diagnostics* diagnostics);

/// True for the names `--check` looks at: `*.yaml` and `*.json`.
bool is_output_name(std::string_view name);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_OUTPUT_MANIFEST_H_
