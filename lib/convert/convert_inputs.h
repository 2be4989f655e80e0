// The whole of `convert`: inputs in, the same stream out with each convertible document in
// the target's form and every other document as it was.
#ifndef TRAINJOB_CONVERT_CONVERT_INPUTS_H_
#define TRAINJOB_CONVERT_CONVERT_INPUTS_H_

#include <optional>
#include <string>

#include "diag/diagnostic.h"
#include "load/file_system.h"
#include "load/input_files.h"
#include "model/dialect.h"
#include "output/render_output.h"

namespace trainjob {

struct ConvertRequest {
  InputOptions inputs;
  /// The dialect TrainJobs and runtimes move to; nullopt (`--to trainjob`): they stay as
  /// they are and only Training Operator v1 jobs become TrainJobs (in the default dialect).
  std::optional<Dialect> release = kDefaultDialect;
  std::string runtime_name;  ///< `--runtime`: the runtime v1 jobs are pointed at
  bool with_runtime =
      false;  ///< `--with-runtime`: emit a TrainingRuntime for what overrides cannot carry
  OutputFormat format = OutputFormat::kYaml;
};

/// The converted stream. YAML keeps the text of every unchanged document and of every
/// unchanged part of a changed one; JSON is a `v1` List of all documents. Empty when
/// `diagnostics` holds errors.
std::string convert_inputs(const ConvertRequest& request, const FileSystem& fs,
                           const StdinReader& read_stdin, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_CONVERT_INPUTS_H_
