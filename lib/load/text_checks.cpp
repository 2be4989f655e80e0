#include "load/text_checks.h"

#include <cstdio>

#include "load/json.h"
#include "util/byte_scan.h"

namespace trainjob {

SourcePos position_of(std::string_view text, size_t offset) {
  SourcePos pos{1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++pos.column;
    }
  }
  return pos;
}

bool check_control_characters(const std::string& file, std::string_view text,
                              Diagnostics* diagnostics) {
  return check_control_characters(file, text, 0, diagnostics);
}

bool check_control_characters(const std::string& file, std::string_view text, int first_line,
                              Diagnostics* diagnostics) {
  if (!has_control_character(text)) return true;
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (is_control_character(c)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      SourcePos pos = position_of(text, i);
      pos.line += first_line;
      diagnostics->error(
          file, pos, "",
          std::string("invalid YAML: control character ") + hex + " (is this a binary file?)");
      return false;
    }
  }
  return true;
}

namespace {

/// Accepts every value and keeps the first error: where it is, which token, and what.
struct JsonErrorFinder {
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(number_integer_t) { return true; }
  bool number_unsigned(number_unsigned_t) { return true; }
  bool number_float(number_float_t, const string_t&) { return true; }
  bool string(string_t&) { return true; }
  bool binary(binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(string_t&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& error) {
    byte = position;
    token = last_token;
    id = error.id;
    what = error.what();
    return false;
  }

  size_t byte = 0;
  std::string token;
  int id = 0;
  std::string what;
};

/// A token for a message: a long one (a number of a million digits) is cut.
std::string shown_token(const std::string& token) {
  constexpr size_t kShown = 40;
  if (token.size() <= kShown) return token;
  return token.substr(0, kShown) + "... (" + std::to_string(token.size()) + " characters)";
}

}  // namespace

bool check_json(const std::string& file, std::string_view text, Diagnostics* diagnostics) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return true;
  JsonErrorFinder finder;
  if (Json::sax_parse(text, &finder)) return true;
  // A stream of several JSON objects is fine: kubectl reads them one after another.
  if (finder.what.find("expected end of input") != std::string::npos) return true;
  // nlohmann's error ids: 406 is a number that does not fit a double.
  constexpr int kNumberOverflow = 406;
  SourcePos where = position_of(text, finder.byte == 0 ? 0 : finder.byte - 1);
  std::string message;
  if (finder.id == kNumberOverflow) {
    where = position_of(text,
                        finder.byte >= finder.token.size() ? finder.byte - finder.token.size() : 0);
    message = "invalid JSON: the number " + shown_token(finder.token) +
              " is out of range (beyond a double's)";
  } else {
    size_t detail = finder.what.find("syntax error");
    message =
        "invalid JSON: " + (detail == std::string::npos ? finder.what : finder.what.substr(detail));
  }
  diagnostics->error(file, where, "", message);
  return false;
}

bool check_document_count(const std::string& file, std::string_view text,
                          Diagnostics* diagnostics) {
  size_t markers = 0;
  return check_document_count(file, text, 0, &markers, diagnostics);
}

bool check_document_count(const std::string& file, std::string_view text, int first_line,
                          size_t* count, Diagnostics* diagnostics) {
  // Every document after the first starts at a `---` or follows a `...` line, so counting
  // those lines bounds the documents before any is built.
  size_t& markers = *count;
  for (size_t line = 0; line < text.size();) {
    std::string_view rest = text.substr(line, 4);
    bool marker = (rest.substr(0, 3) == "---" || rest.substr(0, 3) == "...") &&
                  (rest.size() == 3 || rest[3] == '\n' || rest[3] == ' ' || rest[3] == '\t' ||
                   rest[3] == '\r');
    if (marker && ++markers > kMaxDocuments) {
      SourcePos pos = position_of(text, line);
      pos.line += first_line;
      diagnostics->error(file, pos, "",
                         "more than " + std::to_string(kMaxDocuments) +
                             " documents in one stream; split the input");
      return false;
    }
    size_t end = text.find('\n', line);
    if (end == std::string_view::npos) break;
    line = end + 1;
  }
  return true;
}

}  // namespace trainjob
