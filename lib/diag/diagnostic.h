// Diagnostics are values: every stage appends to one list, the command prints it once.
#ifndef TRAINJOB_DIAG_DIAGNOSTIC_H_
#define TRAINJOB_DIAG_DIAGNOSTIC_H_

#include <string>
#include <vector>

namespace trainjob {

enum class Severity { kError, kWarning };

/// 1-based line and column; 0 means "unknown".
struct SourcePos {
  int line = 0;
  int column = 0;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string file;
  SourcePos pos;
  std::string path;  ///< field path such as `spec.trainer.numNodes`; empty for the whole document
  std::string message;
};

class Diagnostics {
 public:
  void add(Diagnostic diagnostic);
  void error(std::string file, SourcePos pos, std::string path, std::string message);
  void warning(std::string file, SourcePos pos, std::string path, std::string message);

  bool has_errors() const { return error_count_ > 0; }
  int error_count() const { return error_count_; }
  const std::vector<Diagnostic>& all() const { return items_; }
  /// Orders by file, then position, so output reads top to bottom like a compiler's;
  /// drops repeats.
  void sort();

 private:
  std::vector<Diagnostic> items_;
  int error_count_ = 0;
};

/// `text` with every run of over 200 bytes without a space cut to its first 60 bytes and
/// its length: messages quote input, and input can be hostile.
std::string cut_long_runs(const std::string& text);

/// `file:line:col: error: path: message` (parts that are unknown are left out).
std::string format_diagnostic(const Diagnostic& diagnostic);

}  // namespace trainjob

#endif  // TRAINJOB_DIAG_DIAGNOSTIC_H_
