#include "diag/diagnostic.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace trainjob {

void Diagnostics::add(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::kError) ++error_count_;
  items_.push_back(std::move(diagnostic));
}

void Diagnostics::error(std::string file, SourcePos pos, std::string path, std::string message) {
  add({Severity::kError, std::move(file), pos, std::move(path), std::move(message)});
}

void Diagnostics::warning(std::string file, SourcePos pos, std::string path, std::string message) {
  add({Severity::kWarning, std::move(file), pos, std::move(path), std::move(message)});
}

void Diagnostics::sort() {
  // Errors sort before warnings, so that when the same finding was made as both (a runtime
  // checked by itself, then compiled against), the error is the one kept below.
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.file, a.pos.line, a.pos.column, a.path, a.message, a.severity) <
           std::tie(b.file, b.pos.line, b.pos.column, b.path, b.message, b.severity);
  });
  // A check that runs once per target (an override naming two jobs) may find the same
  // problem twice; say it once.
  auto same = [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.file, a.pos.line, a.pos.column, a.path, a.message) ==
           std::tie(b.file, b.pos.line, b.pos.column, b.path, b.message);
  };
  items_.erase(std::unique(items_.begin(), items_.end(), same), items_.end());
  error_count_ =
      static_cast<int>(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
        return d.severity == Severity::kError;
      }));
}

std::string format_diagnostic(const Diagnostic& diagnostic) {
  std::string out;
  if (!diagnostic.file.empty()) {
    out += diagnostic.file;
    if (diagnostic.pos.line > 0) {
      out +=
          ':' + std::to_string(diagnostic.pos.line) + ':' + std::to_string(diagnostic.pos.column);
    }
    out += ": ";
  }
  out += diagnostic.severity == Severity::kError ? "error: " : "warning: ";
  if (!diagnostic.path.empty()) out += diagnostic.path + ": ";
  out += diagnostic.message;
  return out;
}

}  // namespace trainjob
