// The forms `validate` reports its findings in: text for people, JSON for tools,
// JUnit XML for CI systems.
#ifndef TRAINJOB_OUTPUT_DIAGNOSTIC_REPORT_H_
#define TRAINJOB_OUTPUT_DIAGNOSTIC_REPORT_H_

#include <cstdio>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/input_files.h"

namespace trainjob {

/// Each finding as `file:line:col: severity: path: message`, then the source line it points
/// at and a caret under the column, like a compiler; then a summary line. With `color`, each
/// severity word in red or yellow.
std::string format_text_report(const Diagnostics& diagnostics, const SourceTexts& texts,
                               bool color = false);
/// `{"diagnostics": [{severity, file, line, column, path, message}], "errors": N, "warnings": M}`.
std::string format_json_report(const Diagnostics& diagnostics);
/// One test suite per input file, one test case per document (`<Kind>/<name>`), a failure
/// per error; findings before the first document (a YAML syntax error) get a case of their own.
std::string format_junit_report(const Diagnostics& diagnostics,
                                const std::vector<Document>& documents, const SourceTexts& texts);

/// The findings as every command reports them, sorted, one `format_diagnostic` line each
/// (coloured when `stream` takes colour), then what the limit left out; true when none is an
/// error.
bool print_diagnostics(Diagnostics* diagnostics, std::FILE* stream);

/// A line of spaces (tabs where the source has tabs) reaching `column` (from 1), then `^`.
std::string caret_line(const std::string& line, int column);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_DIAGNOSTIC_REPORT_H_
