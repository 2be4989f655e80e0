// Printing rendered objects: a YAML stream, a JSON List, or one file per TrainJob.
#ifndef TRAINJOB_OUTPUT_RENDER_OUTPUT_H_
#define TRAINJOB_OUTPUT_RENDER_OUTPUT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "output/output_dir.h"
#include "render/render_inputs.h"

namespace trainjob {

enum class OutputFormat { kYaml, kJson };
std::optional<OutputFormat> parse_output_format(std::string_view text);

/// YAML documents separated by `---`, or a `v1` `List` as `kubectl get -o json` prints one.
std::string format_objects(const std::vector<const Json*>& objects, OutputFormat format);
/// Every object of every unit, in order.
std::vector<const Json*> all_objects(const std::vector<RenderedUnit>& units);

/// The file a unit goes to under --output-dir: `<name>.yaml` for a TrainJob,
/// `<kind>-<name>.yaml` for anything else, prefixed by `<namespace>.` when namespaced.
std::string output_file_name(const RenderedUnit& unit, OutputFormat format);

/// The files --output-dir holds for `units`, one per unit; units that share a file name
/// are an error.
bool output_dir_files(const std::vector<RenderedUnit>& units, OutputFormat format,
                      OutputFiles* files, Diagnostics* diagnostics);

/// Writes one file per unit into `dir`, all or nothing (see write_output_files); nothing
/// is written when output_dir_files finds an error.
bool write_output_dir(const std::vector<RenderedUnit>& units, const std::string& dir,
                      OutputFormat format, const OutputDirOptions& options,
                      Diagnostics* diagnostics);

/// `render --check`: compares `dir` with what write_output_dir would put there, changing
/// nothing (see check_output_files).
bool check_output_dir(const std::vector<RenderedUnit>& units, const std::string& dir,
                      OutputFormat format, std::string* diffs, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_RENDER_OUTPUT_H_
