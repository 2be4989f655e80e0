// Diagnostics are values: every stage appends to one list, the command prints it once.
#ifndef TRAINJOB_DIAG_DIAGNOSTIC_H_
#define TRAINJOB_DIAG_DIAGNOSTIC_H_

#include <cstddef>
#include <cstdint>
#include <set>
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

/// How many findings a command that reads a stream of any length prints at most (the rest
/// are counted), like a compiler's -ferror-limit.
inline constexpr size_t kShownFindings = 1000;

class Diagnostics {
 public:
  /// Keeps at most `limit` findings, with repeats dropped: the errors first, so that no error
  /// is hidden behind warnings, then the warnings, each the first of the sorted report
  /// (printed in report order). The rest cost 8 bytes each (enough to say each once when counting
  /// them), so a stream with a finding in every document does not grow the memory with the
  /// length of the stream. 0, the default, keeps every finding. Call before the first add.
  void set_limit(size_t limit) { limit_ = limit; }
  size_t limit() const { return limit_; }
  void add(Diagnostic diagnostic);
  void error(std::string file, SourcePos pos, std::string path, std::string message);
  void warning(std::string file, SourcePos pos, std::string path, std::string message);

  bool has_errors() const { return error_count_ > 0; }
  /// Errors and warnings, kept or not; each said once after sort().
  int error_count() const { return error_count_; }
  int warning_count() const;
  /// The findings kept (all of them without a limit); in report order after sort().
  const std::vector<Diagnostic>& all() const;
  /// Findings past the limit, each said once (after sort()).
  int errors_not_kept() const { return errors_not_kept_; }
  int warnings_not_kept() const { return warnings_not_kept_; }
  /// Orders by file, then position, so output reads top to bottom like a compiler's;
  /// drops repeats.
  void sort();

 private:
  /// The report's order: file, position, path, message, then errors before warnings.
  struct ReportOrder {
    bool operator()(const Diagnostic& a, const Diagnostic& b) const;
  };
  void keep_first(Diagnostic diagnostic);
  /// Which kept finding gives way to one more: the last warning, or the last error when no
  /// warning is kept.
  std::set<Diagnostic, ReportOrder>::iterator last_to_go();
  void count_not_kept(const Diagnostic& diagnostic);

  mutable std::vector<Diagnostic> items_;  ///< with a limit: kept_ in order, built on demand
  int error_count_ = 0;
  size_t limit_ = 0;
  std::set<Diagnostic, ReportOrder> kept_;  ///< with a limit: at most `limit_`, no repeats
  size_t kept_warnings_ = 0;
  mutable bool items_stale_ = false;
  /// With a limit: a hash of each finding past it, the low bit set for a warning.
  std::vector<uint64_t> not_kept_;
  int errors_not_kept_ = 0;
  int warnings_not_kept_ = 0;
};

/// `N more errors and M more warnings not shown; only the first K findings are printed`,
/// or empty when every finding was kept.
std::string format_not_kept(const Diagnostics& diagnostics);

/// `text` with every run of over 200 bytes without a space cut to its first 60 bytes and
/// its length: messages quote input, and input can be hostile.
std::string cut_long_runs(const std::string& text);

/// `file:line:col: error: path: message` (parts that are unknown are left out); with
/// `color`, the severity word in red or yellow (util/terminal.h decides when).
std::string format_diagnostic(const Diagnostic& diagnostic, bool color = false);

}  // namespace trainjob

#endif  // TRAINJOB_DIAG_DIAGNOSTIC_H_
