// Checks of raw input text that the YAML parser would report badly or not at all.
#ifndef TRAINJOB_LOAD_TEXT_CHECKS_H_
#define TRAINJOB_LOAD_TEXT_CHECKS_H_

#include <string>
#include <string_view>

#include "diag/diagnostic.h"

namespace trainjob {

/// Line and column (from 1, in characters) of byte `offset` of `text`.
SourcePos position_of(std::string_view text, size_t offset);
/// libyaml refuses control characters but reports them at the start of the file; this
/// says where the first one is. False when there is one.
bool check_control_characters(const std::string& file, std::string_view text,
                              Diagnostics* diagnostics);
/// The same for a piece of a stream that starts after `first_line` lines of it.
bool check_control_characters(const std::string& file, std::string_view text, int first_line,
                              Diagnostics* diagnostics);
/// kubectl reads input that starts with `{` as JSON, strictly; YAML would accept more
/// (trailing commas, comments), so JSON gets a JSON parser's verdict first. False when
/// the JSON is not valid.
bool check_json(const std::string& file, std::string_view text, Diagnostics* diagnostics);

/// Far more documents than any real stream holds; each costs memory before it is checked.
inline constexpr size_t kMaxDocuments = 1000000;
/// False, with a located error, when `text` holds more than kMaxDocuments documents.
bool check_document_count(const std::string& file, std::string_view text, Diagnostics* diagnostics);
/// The same for a piece of a stream that starts after `first_line` lines and `*markers`
/// document markers of it; adds the piece's markers to `*markers`.
bool check_document_count(const std::string& file, std::string_view text, int first_line,
                          size_t* markers, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_TEXT_CHECKS_H_
