#include "diag/diagnostic.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace trainjob {
namespace {

/// Longer runs of text without a space are cut, so that no input value (a name of 100,000
/// characters, a number of a million digits) is echoed whole into a message.
constexpr size_t kLongestRun = 200;
constexpr size_t kRunShown = 60;

bool needs_cut(const std::string& text) {
  size_t run = 0;
  for (char c : text) {
    run = c == ' ' || c == '\n' ? 0 : run + 1;
    if (run > kLongestRun) return true;
  }
  return false;
}

}  // namespace

std::string cut_long_runs(const std::string& text) {
  if (!needs_cut(text)) return text;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = std::min(text.find_first_of(" \n", start), text.size());
    std::string_view run(text.data() + start, end - start);
    if (run.size() <= kLongestRun) {
      out += run;
    } else {
      // Never cut a UTF-8 sequence in two: back up over its continuation bytes.
      size_t cut = kRunShown;
      while (cut > 0 && (static_cast<unsigned char>(run[cut]) & 0xC0) == 0x80)
        --cut;
      out += std::string(run.substr(0, cut)) + "...[" + std::to_string(run.size()) + " bytes]";
    }
    if (end < text.size()) out += text[end];
    start = end + 1;
  }
  return out;
}

void Diagnostics::add(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::kError) ++error_count_;
  diagnostic.path = cut_long_runs(diagnostic.path);
  diagnostic.message = cut_long_runs(diagnostic.message);
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
