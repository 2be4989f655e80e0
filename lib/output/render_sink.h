// Where `render`'s units go: one stream on stdout, or the files of --output-dir (compared
// instead with --check), all at the end and nothing at all on an error.
#ifndef TRAINJOB_OUTPUT_RENDER_SINK_H_
#define TRAINJOB_OUTPUT_RENDER_SINK_H_

#include <string>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "output/render_output.h"
#include "output/spilled_stream.h"

namespace trainjob {

struct RenderSinkOptions {
  OutputFormat format = OutputFormat::kYaml;
  std::string output_dir;         ///< --output-dir; empty: print to stdout
  bool check = false;             ///< --check: compare output_dir, change nothing
  bool prune = false;             ///< --prune: remove the files of an earlier write
  bool generate_secrets = false;  ///< --generate-secrets: warn of the private keys
};

class RenderSink {
 public:
  explicit RenderSink(RenderSinkOptions options);

  /// Takes one rendered unit, as render_stream hands it over: a failure to keep it for
  /// stdout is added to `diagnostics`; one of --output-dir's waits for finish.
  void add(const RenderedUnit& unit, Diagnostics* diagnostics);
  /// Whether no unit came at all.
  bool empty() const { return !any_unit_; }
  /// Reports `diagnostics` on stderr, then prints the units to stdout or writes (or checks)
  /// them under --output-dir; with an error, prints and writes nothing. True when all went
  /// well (exit 0).
  bool finish(Diagnostics* diagnostics);

 private:
  bool write_or_check(Diagnostics* diagnostics);

  RenderSinkOptions options_;
  SpilledStream stream_;
  OutputDirFiles files_;
  Diagnostics file_findings_;  ///< --output-dir's own: said only when the inputs are fine
  std::string private_keys_;   ///< names of the Secrets with generated keys
  bool any_unit_ = false;
};

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_RENDER_SINK_H_
