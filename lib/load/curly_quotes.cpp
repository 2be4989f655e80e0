#include "load/curly_quotes.h"

namespace trainjob {
namespace {

constexpr std::string_view kLeftDouble = "\xE2\x80\x9C";   // U+201C
constexpr std::string_view kRightDouble = "\xE2\x80\x9D";  // U+201D
constexpr std::string_view kRightSingle = "\xE2\x80\x99";  // U+2019
constexpr size_t kMarkBytes = 3;
/// Characters of a value shown in the warning before it is cut short.
constexpr size_t kShownCharacters = 40;

/// `:` followed by a blank or the line's end: YAML's key separator.
bool is_separator(std::string_view line, size_t i) {
  return line[i] == ':' && (i + 1 == line.size() || is_space_or_tab(line[i + 1]));
}

bool is_double(std::string_view line, size_t at) {
  return line.substr(at, kMarkBytes) == kLeftDouble;
}

/// Where the pair's closing mark ends, or npos when there is none.
size_t closing_end(std::string_view line, size_t at) {
  size_t close = line.find(is_double(line, at) ? kRightDouble : kRightSingle, at + kMarkBytes);
  return close == std::string_view::npos ? close : close + kMarkBytes;
}

}  // namespace

CurlyQuotes classify_curly_quotes(std::string_view line, size_t at) {
  size_t close_end = closing_end(line, at);
  if (close_end == std::string_view::npos) return CurlyQuotes::kContent;
  // The pair stands around the scalar when YAML ends the scalar right after its closing
  // mark: at the line's end, at ` #` (a comment) or at `: `. Then the scalar is a key that
  // keeps the marks, which no Kubernetes field is named with: the error says so at the mark
  // rather than as an unknown field "“name”".
  size_t after = close_end;
  while (after < line.size() && is_space_or_tab(line[after]))
    ++after;
  bool key = after < line.size() && is_separator(line, after);
  bool comment = after < line.size() && after > close_end && line[after] == '#';
  if (after < line.size() && !key && !comment) return CurlyQuotes::kContent;  // `“a” and “b”`
  if (key) return CurlyQuotes::kSyntax;
  // Inside the pair, `: ` or ` #` ends the scalar where YAML's quotes would have kept it.
  for (size_t i = at + kMarkBytes; i + kMarkBytes < close_end; ++i)
    if (is_separator(line, i) || (line[i] == '#' && is_space_or_tab(line[i - 1])))
      return CurlyQuotes::kSyntax;
  return CurlyQuotes::kText;
}

std::string curly_quotes_warning(std::string_view line, size_t at) {
  bool double_marks = is_double(line, at);
  size_t close_end = closing_end(line, at);
  std::string_view inner = line.substr(at + kMarkBytes, close_end - at - 2 * kMarkBytes);
  size_t shown = 0;
  size_t characters = 0;
  while (shown < inner.size() && characters < kShownCharacters) {
    ++characters;
    for (++shown;
         shown < inner.size() && (static_cast<unsigned char>(inner[shown]) & 0xC0) == 0x80;)
      ++shown;
  }
  std::string value = std::string(line.substr(at, kMarkBytes)) +
                      std::string(inner.substr(0, shown)) + (shown < inner.size() ? "..." : "") +
                      std::string(double_marks ? kRightDouble : kRightSingle);
  return "value " + value + " keeps its quotation marks " +
         (double_marks ? "U+201C U+201D" : "U+2018 U+2019") +
         " as text; if they were meant as YAML quotes, use " + (double_marks ? "'\"'" : "\"'\"");
}

}  // namespace trainjob
