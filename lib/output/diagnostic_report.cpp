#include "output/diagnostic_report.h"

#include <algorithm>
#include <map>

#include "output/json_text.h"
#include "util/terminal.h"

namespace trainjob {
namespace {

/// Source lines longer than this are shown as a window around the column.
constexpr size_t kShownLineLength = 160;

bool is_error(const Diagnostic& diagnostic) {
  return diagnostic.severity == Severity::kError;
}

std::string count_of(int count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string summary(const Diagnostics& diagnostics) {
  int errors = diagnostics.error_count();
  int warnings = diagnostics.warning_count();
  if (errors == 0 && warnings == 0) return "no problems found";
  return count_of(errors, "error") + ", " + count_of(warnings, "warning");
}

/// Where each line of each input starts, built once: a report of thousands of findings in
/// a large file must not rescan the file for each of them.
class LineIndex {
 public:
  explicit LineIndex(const SourceTexts& texts) : texts_(texts) {}

  std::string line(const std::string& file, int number) {
    auto text = texts_.find(file);
    if (text == texts_.end() || number <= 0) return {};
    std::vector<size_t>& starts = starts_[file];
    if (starts.empty()) {
      starts.push_back(0);
      for (size_t i = 0; i < text->second.size(); ++i) {
        if (text->second[i] == '\n') starts.push_back(i + 1);
      }
    }
    if (static_cast<size_t>(number) > starts.size()) return {};
    size_t start = starts[static_cast<size_t>(number) - 1];
    size_t end = text->second.find('\n', start);
    std::string out = text->second.substr(start, end == std::string::npos ? end : end - start);
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return out;
  }

 private:
  const SourceTexts& texts_;
  std::map<std::string, std::vector<size_t>> starts_;
};

/// True for valid UTF-8 without control characters: a line of a binary file is not shown.
bool is_printable(const std::string& line) {
  for (size_t i = 0; i < line.size();) {
    auto c = static_cast<unsigned char>(line[i]);
    size_t length = c < 0x80           ? 1
                    : (c >> 5) == 0x6  ? 2
                    : (c >> 4) == 0xE  ? 3
                    : (c >> 3) == 0x1E ? 4
                                       : 0;
    if (length == 0 || i + length > line.size() || (c < 0x20 && c != '\t') || c == 0x7F)
      return false;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(line[i + k]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

/// Appends the quoted source line and the caret under the finding's column.
void append_excerpt(const Diagnostic& diagnostic, LineIndex* lines, std::string* out) {
  std::string line = lines->line(diagnostic.file, diagnostic.pos.line);
  int column = diagnostic.pos.column;
  if (line.size() > kShownLineLength) {
    // A window around the column, with "…" where the line goes on.
    size_t start = column > 80 ? static_cast<size_t>(column - 80) : 0;
    bool cut_end = start + kShownLineLength < line.size();
    line = line.substr(start, kShownLineLength);
    column -= static_cast<int>(start);
    if (start > 0) {
      line = "…" + line;
      column += 1;
    }
    if (cut_end) line += "…";
  }
  if (line.find_first_not_of(" \t") == std::string::npos || !is_printable(line)) return;
  *out += "  " + line + "\n  " + caret_line(line, column) + "\n";
}

std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no way to write most control characters; drop them.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

/// A JUnit test case: one document of a file, or the file itself.
struct Case {
  std::string name;
  std::vector<const Diagnostic*> findings;
};

std::vector<Case> cases_of_file(const std::string& file, const std::vector<Document>& documents,
                                const std::vector<const Diagnostic*>& findings) {
  std::vector<Case> cases{{file, {}}};
  std::vector<int> starts{0};
  for (const Document& document : documents) {
    if (document.file != file) continue;
    cases.push_back({document.kind() + "/" + document.name(), {}});
    starts.push_back(document.pos_of("").line);
  }
  for (const Diagnostic* finding : findings) {
    // The last document starting at or before the finding (documents come in file order).
    size_t owner = 0;
    if (finding->pos.line > 0) {
      auto after = std::upper_bound(starts.begin() + 1, starts.end(), finding->pos.line);
      owner = static_cast<size_t>(after - starts.begin()) - 1;
    }
    cases[owner].findings.push_back(finding);
  }
  if (cases[0].findings.empty()) cases.erase(cases.begin());
  return cases;
}

void append_case(const std::string& file, const Case& test_case, std::string* out) {
  *out += "    <testcase classname=\"" + xml_escaped(file) + "\" name=\"" +
          xml_escaped(test_case.name) + "\">\n";
  std::string warnings;
  for (const Diagnostic* finding : test_case.findings) {
    std::string line = format_diagnostic(*finding);
    if (!is_error(*finding)) {
      warnings += line + "\n";
      continue;
    }
    std::string message =
        finding->path.empty() ? finding->message : finding->path + ": " + finding->message;
    *out += "      <failure type=\"error\" message=\"" + xml_escaped(message) + "\">" +
            xml_escaped(line) + "</failure>\n";
  }
  if (!warnings.empty()) *out += "      <system-out>" + xml_escaped(warnings) + "</system-out>\n";
  *out += "    </testcase>\n";
}

}  // namespace

namespace {

/// East Asian Wide and Full-width code points, as terminals draw them: two cells.
bool is_wide_code(unsigned code) {
  return (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
         (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
         (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
         (code >= 0xFFE0 && code <= 0xFFE6) || (code >= 0x20000 && code <= 0x3FFFD);
}

/// Whether the UTF-8 character starting at byte `i` of `line` is drawn two cells wide.
bool is_wide_at(const std::string& line, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(line[k]); };
  unsigned lead = byte(i);
  if (lead >= 0xE0 && lead < 0xF0 && i + 2 < line.size())
    return is_wide_code(((lead & 0x0F) << 12) | ((byte(i + 1) & 0x3F) << 6) | (byte(i + 2) & 0x3F));
  if (lead >= 0xF0 && i + 3 < line.size()) {
    return is_wide_code(((lead & 0x07) << 18) | ((byte(i + 1) & 0x3F) << 12) |
                        ((byte(i + 2) & 0x3F) << 6) | (byte(i + 3) & 0x3F));
  }
  return false;
}

}  // namespace

std::string caret_line(const std::string& line, int column) {
  std::string out;
  int seen = 1;
  for (size_t i = 0; i < line.size() && seen < column; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: same character
    if (c == '\t') {
      out += '\t';
    } else {
      // A terminal gives a CJK character or full-width mark two cells.
      out += is_wide_at(line, i) ? "  " : " ";
    }
    ++seen;
  }
  return out + "^";
}

bool print_diagnostics(Diagnostics* diagnostics, std::FILE* stream) {
  diagnostics->sort();
  bool color = color_enabled(stream);
  for (const Diagnostic& diagnostic : diagnostics->all()) {
    std::fprintf(stream, "%s\n", format_diagnostic(diagnostic, color).c_str());
  }
  std::string not_kept = format_not_kept(*diagnostics);
  if (!not_kept.empty()) std::fprintf(stream, "%s\n", not_kept.c_str());
  return !diagnostics->has_errors();
}

std::string format_text_report(const Diagnostics& diagnostics, const SourceTexts& texts,
                               bool color) {
  std::string out;
  LineIndex lines(texts);
  for (const Diagnostic& diagnostic : diagnostics.all()) {
    out += format_diagnostic(diagnostic, color) + "\n";
    append_excerpt(diagnostic, &lines, &out);
  }
  return out + summary(diagnostics) + "\n";
}

std::string format_json_report(const Diagnostics& diagnostics) {
  std::string out = "{\n  \"diagnostics\": [";
  const char* separator = "\n";
  for (const Diagnostic& d : diagnostics.all()) {
    out += separator;
    out += "    {\n      \"severity\": ";
    out += is_error(d) ? "\"error\"" : "\"warning\"";
    out += ",\n      \"file\": ";
    append_json_string(d.file, &out);
    out += ",\n      \"line\": " + std::to_string(d.pos.line);
    out += ",\n      \"column\": " + std::to_string(d.pos.column);
    out += ",\n      \"path\": ";
    append_json_string(d.path, &out);
    out += ",\n      \"message\": ";
    append_json_string(d.message, &out);
    out += "\n    }";
    separator = ",\n";
  }
  if (!diagnostics.all().empty()) out += "\n  ";
  int errors = diagnostics.error_count();
  int warnings = diagnostics.warning_count();
  out += "],\n  \"errors\": " + std::to_string(errors) +
         ",\n  \"warnings\": " + std::to_string(warnings) + "\n}\n";
  return out;
}

std::string format_junit_report(const Diagnostics& diagnostics,
                                const std::vector<Document>& documents, const SourceTexts& texts) {
  std::map<std::string, std::vector<const Diagnostic*>> by_file;
  for (const auto& entry : texts)
    by_file[entry.first];
  for (const Diagnostic& d : diagnostics.all())
    by_file[d.file].push_back(&d);
  std::string suites;
  int total_tests = 0;
  int total_failures = 0;
  for (const auto& [file, findings] : by_file) {
    std::vector<Case> cases = cases_of_file(file, documents, findings);
    int failures = 0;  // test cases with at least one error
    for (const Case& test_case : cases) {
      bool failed = false;
      for (const Diagnostic* finding : test_case.findings)
        failed = failed || is_error(*finding);
      failures += failed ? 1 : 0;
    }
    std::string name = file.empty() ? "inputs" : file;
    suites += "  <testsuite name=\"" + xml_escaped(name) + "\" tests=\"" +
              std::to_string(cases.size()) + "\" failures=\"" + std::to_string(failures) + "\">\n";
    for (const Case& test_case : cases)
      append_case(name, test_case, &suites);
    suites += "  </testsuite>\n";
    total_tests += static_cast<int>(cases.size());
    total_failures += failures;
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<testsuites name=\"kubectl trainjob validate\" tests=\"" +
         std::to_string(total_tests) + "\" failures=\"" + std::to_string(total_failures) + "\">\n" +
         suites + "</testsuites>\n";
}

}  // namespace trainjob
