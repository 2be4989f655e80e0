// Printing rendered objects: a YAML stream, a JSON List, or one file per TrainJob.
#ifndef TRAINJOB_OUTPUT_RENDER_OUTPUT_H_
#define TRAINJOB_OUTPUT_RENDER_OUTPUT_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "output/output_dir.h"

namespace trainjob {

enum class OutputFormat { kYaml, kJson };
std::optional<OutputFormat> parse_output_format(std::string_view text);

/// YAML documents separated by `---`, or a `v1` `List` as `kubectl get -o json` prints one.
std::string format_objects(const std::vector<const Json*>& objects, OutputFormat format);

/// The file a unit goes to under --output-dir: `<name>.yaml` for a TrainJob,
/// `<kind>-<name>.yaml` for anything else, prefixed by `<namespace>.` when namespaced.
std::string output_file_name(const RenderedUnit& unit, OutputFormat format);

/// The files --output-dir holds, collected a unit at a time: one per unit, named by
/// output_file_name; a unit whose file name an earlier one took is an error.
class OutputDirFiles {
 public:
  explicit OutputDirFiles(OutputFormat format);
  void add(const RenderedUnit& unit, Diagnostics* diagnostics);
  const OutputFiles& files() const { return files_; }

 private:
  OutputFormat format_;
  OutputFiles files_;
  std::map<std::string, std::string> sources_;  ///< file name -> the input it came from
};

/// Writes `files` into `dir`, all or nothing (see write_output_files).
bool write_output_dir(const OutputFiles& files, const std::string& dir,
                      const OutputDirOptions& options, Diagnostics* diagnostics);

/// `render --check`: compares `dir` with what write_output_dir would put there, changing
/// nothing (see check_output_files).
bool check_output_dir(const OutputFiles& files, const std::string& dir, std::string* diffs,
                      Diagnostics* diagnostics);

/// The names of the Secrets of `unit` that hold freshly generated private keys
/// (--generate-secrets), so that the user can be told to keep them out of Git.
std::vector<std::string> private_key_secrets(const RenderedUnit& unit);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_RENDER_OUTPUT_H_
