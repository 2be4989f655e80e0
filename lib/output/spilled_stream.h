// The printed stream of `render`, kept in a temporary file until it is known to be whole.
#ifndef TRAINJOB_OUTPUT_SPILLED_STREAM_H_
#define TRAINJOB_OUTPUT_SPILLED_STREAM_H_

#include <cstdio>
#include <string>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "output/render_output.h"

namespace trainjob {

/// The text format_objects gives for all the units added, built a unit at a time in a
/// temporary file (so its size costs no memory) and copied out only at the end, so that
/// an error found after the first unit still leaves the output empty.
class SpilledStream {
 public:
  explicit SpilledStream(OutputFormat format);
  ~SpilledStream();
  SpilledStream(const SpilledStream&) = delete;
  SpilledStream& operator=(const SpilledStream&) = delete;

  /// Appends the objects of `unit`; an error when the temporary file cannot take them
  /// (a full disk), after which nothing more is written.
  void add(const RenderedUnit& unit, Diagnostics* diagnostics);
  /// Copies the whole text to `out`; false when that fails (a closed pipe).
  bool copy_to(std::FILE* out, Diagnostics* diagnostics);

 private:
  bool write(const std::string& text, Diagnostics* diagnostics);

  OutputFormat format_;
  std::FILE* spill_ = nullptr;
  size_t objects_ = 0;
  bool failed_ = false;
};

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_SPILLED_STREAM_H_
