#include "diag/diagnostic.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <tuple>
#include <utility>

#include "util/terminal.h"

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

/// The same finding, whatever its severity.
bool same_finding(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.file, a.pos.line, a.pos.column, a.path, a.message) ==
         std::tie(b.file, b.pos.line, b.pos.column, b.path, b.message);
}

/// A hash of what same_finding compares, with the low bit set for a warning.
uint64_t finding_hash(const Diagnostic& d) {
  std::string key = d.file + '\0' + std::to_string(d.pos.line) + ':' +
                    std::to_string(d.pos.column) + '\0' + d.path + '\0' + d.message;
  uint64_t hash = std::hash<std::string>{}(key);
  return (hash & ~uint64_t{1}) | (d.severity == Severity::kWarning ? 1 : 0);
}

/// "1,000": counts in a summary line can be long.
std::string with_commas(int count) {
  std::string digits = std::to_string(count);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<size_t>(at), ",");
  return digits;
}

std::string more(int count, const char* noun) {
  return with_commas(count) + " more " + noun + (count == 1 ? "" : "s");
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
  if (limit_ > 0) {
    keep_first(std::move(diagnostic));
    return;
  }
  items_.push_back(std::move(diagnostic));
}

bool Diagnostics::ReportOrder::operator()(const Diagnostic& a, const Diagnostic& b) const {
  // Errors sort before warnings, so that when the same finding was made as both (a runtime
  // checked by itself, then compiled against), the error is the one kept.
  return std::tie(a.file, a.pos.line, a.pos.column, a.path, a.message, a.severity) <
         std::tie(b.file, b.pos.line, b.pos.column, b.path, b.message, b.severity);
}

void Diagnostics::keep_first(Diagnostic diagnostic) {
  // A repeat sits next to the one kept: the severity is the last thing ordered by.
  auto at = kept_.lower_bound(diagnostic);
  if (at != kept_.end() && same_finding(*at, diagnostic)) {
    if (at->severity == diagnostic.severity) return;
    --kept_warnings_;
    at = kept_.erase(at);  // the error replaces the warning
  } else if (at != kept_.begin() && same_finding(*std::prev(at), diagnostic)) {
    return;  // the error is kept already
  }
  bool warning = diagnostic.severity == Severity::kWarning;
  if (kept_.size() >= limit_ && warning == (kept_warnings_ > 0) &&
      !ReportOrder()(diagnostic, *last_to_go())) {
    count_not_kept(diagnostic);  // it would go first itself: the common case, no copy
    return;
  }
  if (kept_.size() >= limit_ && warning && kept_warnings_ == 0) {
    count_not_kept(diagnostic);  // the shown places are all errors
    return;
  }
  kept_.insert(at, std::move(diagnostic));
  kept_warnings_ += warning ? 1 : 0;
  items_stale_ = true;
  if (kept_.size() > limit_) {
    auto last = last_to_go();
    kept_warnings_ -= last->severity == Severity::kWarning ? 1 : 0;
    count_not_kept(*last);
    kept_.erase(last);
  }
}

std::set<Diagnostic, Diagnostics::ReportOrder>::iterator Diagnostics::last_to_go() {
  // Errors are never hidden behind warnings: the last warning in report order goes first,
  // the last error only when every kept finding is an error.
  if (kept_warnings_ > 0) {
    for (auto it = kept_.end(); it != kept_.begin();) {
      --it;
      if (it->severity == Severity::kWarning) return it;
    }
  }
  return std::prev(kept_.end());
}

void Diagnostics::count_not_kept(const Diagnostic& diagnostic) {
  not_kept_.push_back(finding_hash(diagnostic));
}

const std::vector<Diagnostic>& Diagnostics::all() const {
  if (items_stale_) {
    items_.assign(kept_.begin(), kept_.end());
    items_stale_ = false;
  }
  return items_;
}

int Diagnostics::warning_count() const {
  int kept_errors =
      static_cast<int>(std::count_if(all().begin(), all().end(), [](const Diagnostic& d) {
        return d.severity == Severity::kError;
      }));
  return static_cast<int>(all().size()) - kept_errors + warnings_not_kept_;
}

void Diagnostics::error(std::string file, SourcePos pos, std::string path, std::string message) {
  add({Severity::kError, std::move(file), pos, std::move(path), std::move(message)});
}

void Diagnostics::warning(std::string file, SourcePos pos, std::string path, std::string message) {
  add({Severity::kWarning, std::move(file), pos, std::move(path), std::move(message)});
}

void Diagnostics::sort() {
  if (limit_ == 0) {
    std::stable_sort(items_.begin(), items_.end(), ReportOrder());
    // A check that runs once per target (an override naming two jobs) may find the same
    // problem twice; say it once.
    items_.erase(std::unique(items_.begin(), items_.end(), same_finding), items_.end());
  } else {
    // Kept ones are in order and said once already; those past the limit are said once by
    // their hashes, an error's (low bit clear) winning over the same warning's.
    std::sort(not_kept_.begin(), not_kept_.end());
    not_kept_.erase(std::unique(not_kept_.begin(), not_kept_.end(),
                                [](uint64_t a, uint64_t b) { return a >> 1 == b >> 1; }),
                    not_kept_.end());
    // A warning that gave way before its finding came again as an error is shown as that
    // error: not counted as well.
    std::vector<uint64_t> shown_errors;
    for (const Diagnostic& kept : kept_) {
      if (kept.severity == Severity::kError) shown_errors.push_back(finding_hash(kept) >> 1);
    }
    std::sort(shown_errors.begin(), shown_errors.end());
    not_kept_.erase(std::remove_if(not_kept_.begin(), not_kept_.end(),
                                   [&](uint64_t hash) {
                                     return std::binary_search(shown_errors.begin(),
                                                               shown_errors.end(), hash >> 1);
                                   }),
                    not_kept_.end());
    warnings_not_kept_ = static_cast<int>(std::count_if(
        not_kept_.begin(), not_kept_.end(), [](uint64_t hash) { return (hash & 1) != 0; }));
    errors_not_kept_ = static_cast<int>(not_kept_.size()) - warnings_not_kept_;
  }
  error_count_ = errors_not_kept_ + static_cast<int>(std::count_if(
                                        all().begin(), all().end(), [](const Diagnostic& d) {
                                          return d.severity == Severity::kError;
                                        }));
}

std::string format_not_kept(const Diagnostics& diagnostics) {
  int errors = diagnostics.errors_not_kept();
  int warnings = diagnostics.warnings_not_kept();
  if (errors == 0 && warnings == 0) return "";
  std::string counts = errors > 0 ? more(errors, "error") : "";
  if (warnings > 0) counts += (counts.empty() ? "" : " and ") + more(warnings, "warning");
  return "note: " + counts + " not shown; only the first " +
         with_commas(static_cast<int>(diagnostics.limit())) + " findings are printed";
}

std::string format_diagnostic(const Diagnostic& diagnostic, bool color) {
  std::string out;
  if (!diagnostic.file.empty()) {
    out += diagnostic.file;
    if (diagnostic.pos.line > 0) {
      out +=
          ':' + std::to_string(diagnostic.pos.line) + ':' + std::to_string(diagnostic.pos.column);
    }
    out += ": ";
  }
  bool error = diagnostic.severity == Severity::kError;
  out += paint(error ? "error:" : "warning:", error ? Tone::kError : Tone::kWarning, color) + " ";
  if (!diagnostic.path.empty()) out += diagnostic.path + ": ";
  out += diagnostic.message;
  return out;
}

}  // namespace trainjob
