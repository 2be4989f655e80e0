#include "load/typing_checks.h"

#include <cctype>
#include <cstdio>

#include "load/curly_quotes.h"

namespace trainjob {
namespace {

struct WideEntry {
  char32_t code;
  const char* name;
  const char* ascii;
};

// What a Chinese or Japanese input method types when its full-width mode is on; the
// typographic quotes come from the same input methods' quote keys.
constexpr WideEntry kWideEntries[] = {
    {0xFF1A, "full-width colon", ":"},
    {0xFF0C, "full-width comma", ","},
    {0x3001, "ideographic comma", ","},
    {0x3000, "full-width space", " "},
    {0xFF0D, "full-width hyphen-minus", "-"},
    {0xFF1B, "full-width semicolon", ";"},
    {0xFF08, "full-width left parenthesis", "("},
    {0xFF09, "full-width right parenthesis", ")"},
    {0xFF3B, "full-width left square bracket", "["},
    {0xFF3D, "full-width right square bracket", "]"},
    {0xFF5B, "full-width left curly bracket", "{"},
    {0xFF5D, "full-width right curly bracket", "}"},
    {0xFF03, "full-width number sign", "#"},
    {0xFF02, "full-width quotation mark", "\""},
    {0xFF07, "full-width apostrophe", "'"},
    {0x201C, "left double quotation mark", "\""},
    {0x201D, "right double quotation mark", "\""},
    {0x2018, "left single quotation mark", "'"},
    {0x2019, "right single quotation mark", "'"},
};

constexpr char32_t kIdeographicSpace = 0x3000;
constexpr char32_t kWideHyphen = 0xFF0D;

/// The code point of the three-byte UTF-8 sequence at `i` of `line`, else 0. Every mark
/// above is three bytes long.
char32_t three_byte_code(std::string_view line, size_t i) {
  if (i + 2 >= line.size()) return 0;
  auto b0 = static_cast<unsigned char>(line[i]);
  auto b1 = static_cast<unsigned char>(line[i + 1]);
  auto b2 = static_cast<unsigned char>(line[i + 2]);
  if ((b0 & 0xF0) != 0xE0 || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return 0;
  return static_cast<char32_t>(((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F));
}

bool is_key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '/' ||
         c == '-';
}

/// `{{` followed by what only a Go template action starts with: a field (`.Values`), a
/// variable, a comment, or one of the words Helm charts use most.
bool is_helm_action(std::string_view line, size_t at) {
  size_t i = at + 2;
  if (i < line.size() && line[i] == '-') ++i;
  while (i < line.size() && line[i] == ' ')
    ++i;
  if (i >= line.size()) return false;
  if (line[i] == '.' || line[i] == '$' || line[i] == '/') return true;
  static constexpr std::string_view kWords[] = {"include", "template", "toYaml",  "if ",     "else",
                                                "end",     "range ",   "with ",   "define ", "tpl ",
                                                "quote",   "printf",   "default", "required"};
  std::string_view rest = line.substr(i);
  for (std::string_view word : kWords)
    if (rest.substr(0, word.size()) == word) return true;
  return false;
}

/// Reads a stream line by line, keeping what a line leaves open for the next: a block
/// scalar's content, a quoted string, a flow collection.
class TypingScanner {
 public:
  TypingScanner(const std::string& file, int first_line, Diagnostics* diagnostics)
      : file_(file), first_line_(first_line), diagnostics_(diagnostics) {}

  /// Checks one line (without its newline), numbered from 1 within the piece. False once
  /// a Helm template was seen: the rest would only repeat it.
  bool line(std::string_view text, int number);
  bool found() const { return found_; }

 private:
  bool in_block_content(std::string_view text);
  bool check_indentation(std::string_view text, int number, size_t* content);
  enum class Step { kTaken, kNotTaken, kLineEnds };
  void scan(std::string_view text, int number, size_t from);
  /// Inside a quoted string: closes it at its quote; returns the last byte consumed.
  size_t in_quote(std::string_view text, size_t i);
  /// A multi-byte character; true when it was reported.
  bool wide_mark(std::string_view text, int number, size_t i, char32_t code);
  /// Where a node may start: list markers, quotes and block scalar indicators.
  Step at_node_start(std::string_view text, size_t i);
  /// Flow brackets, the key's colon, and the characters of a key.
  void structure(std::string_view text, size_t i);
  bool reportable(std::string_view text, size_t i, char32_t code) const;
  void report(std::string_view text, int number, size_t byte, const std::string& message,
              Severity severity = Severity::kError);

  const std::string& file_;
  int first_line_;
  Diagnostics* diagnostics_;
  bool found_ = false;
  bool helm_ = false;
  int block_parent_ = -1;  ///< indentation of the line that opened a block scalar
  char quote_ = 0;         ///< a quoted string left open at the end of the last line
  int flow_ = 0;           ///< depth of the flow collections left open
  // Per line: the key being typed, while only ASCII key characters were seen.
  bool key_part_ = false;
  size_t key_length_ = 0;
  bool key_plain_ = false;
  bool key_spaced_ = false;
  bool node_start_ = false;
  int indent_ = 0;
};

/// Only an error makes check_typing drop the document: a warning's document still loads.
void TypingScanner::report(std::string_view text, int number, size_t byte,
                           const std::string& message, Severity severity) {
  SourcePos pos{first_line_ + number, 1};
  for (size_t i = 0; i < byte && i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++pos.column;
  if (severity == Severity::kWarning) {
    diagnostics_->warning(file_, pos, "", message);
    return;
  }
  diagnostics_->error(file_, pos, "", message);
  found_ = true;
}

bool TypingScanner::in_block_content(std::string_view text) {
  if (block_parent_ < 0) return false;
  size_t indent = text.find_first_not_of(' ');
  if (indent == std::string_view::npos || text.find_first_not_of(" \t\r") == std::string::npos)
    return true;  // blank lines belong to the block
  if (static_cast<int>(indent) > block_parent_) return true;
  block_parent_ = -1;
  return false;
}

/// Tabs and full-width spaces before a line's content; `*content` is where it starts.
bool TypingScanner::check_indentation(std::string_view text, int number, size_t* content) {
  size_t i = 0;
  size_t bad = std::string_view::npos;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      if (text[i] == '\t' && bad == std::string_view::npos) bad = i;
      ++i;
    } else if (three_byte_code(text, i) == kIdeographicSpace) {
      if (bad == std::string_view::npos) bad = i;
      i += 3;
    } else {
      break;
    }
  }
  *content = i;
  // Whitespace before a comment or nothing at all is harmless.
  if (bad == std::string_view::npos || i >= text.size() || text[i] == '#' || text[i] == '\r')
    return true;
  report(text, number, bad,
         text[bad] == '\t' ? "invalid YAML: a tab character in the indentation; YAML indents with "
                             "spaces only"
                           : "invalid YAML: full-width space U+3000 in the indentation: use ' '");
  return false;
}

/// Full-width marks count where YAML reads its syntax: in a flow collection, in a key
/// typed in ASCII so far (`name：`), or as a list marker.
bool TypingScanner::reportable(std::string_view text, size_t i, char32_t code) const {
  if (flow_ > 0) return true;
  if (key_part_ && key_plain_ && key_length_ > 0) {
    // A colon or space there turns the key into a scalar; another mark only matters in
    // what YAML reads as a key after all (`key；x: 1`), not in a list item's text.
    if (code == 0xFF1A || code == kIdeographicSpace) return true;
    size_t colon = text.find(':', i);
    return colon != std::string_view::npos &&
           (colon + 1 == text.size() || is_space_or_tab(text[colon + 1]));
  }
  if (!node_start_ || code != kWideHyphen) return false;
  size_t next = i + 3;
  return next >= text.size() || text[next] == ' ' || three_byte_code(text, next) == 0x3000;
}

size_t TypingScanner::in_quote(std::string_view text, size_t i) {
  char c = text[i];
  if (quote_ == '"' && c == '\\') return i + 1;  // an escape: the next byte is content
  if (c != quote_) return i;
  if (quote_ == '\'' && i + 1 < text.size() && text[i + 1] == '\'') return i + 1;  // ''
  quote_ = 0;
  return i;
}

bool TypingScanner::wide_mark(std::string_view text, int number, size_t i, char32_t code) {
  WidePunctuation mark = wide_punctuation(code);
  // Curly quotes that open a value in block context are often Chinese text's own quotes: a
  // warning where YAML reads the same string either way, an error where it reads another
  // structure. In a flow collection they always stand for YAML's quotes (reportable).
  bool opens_value = node_start_ && flow_ == 0 && (code == 0x201C || code == 0x2018);
  CurlyQuotes curly = opens_value ? classify_curly_quotes(text, i) : CurlyQuotes::kContent;
  if (curly == CurlyQuotes::kText) {
    report(text, number, i, curly_quotes_warning(text, i), Severity::kWarning);
    return true;  // the rest of the line is the value's text
  }
  if (mark.name != nullptr && (curly == CurlyQuotes::kSyntax || reportable(text, i, code))) {
    char message[160];
    // The ASCII mark in quotes of the other kind, so that an apostrophe reads "'".
    const char* quote = mark.ascii[0] == '\'' ? "\"" : "'";
    std::snprintf(message, sizeof message, "invalid YAML: %s U+%04X: use %s%s%s", mark.name,
                  static_cast<unsigned>(code), quote, mark.ascii, quote);
    report(text, number, i, message);
    return true;
  }
  key_plain_ = false;
  node_start_ = false;
  return false;
}

TypingScanner::Step TypingScanner::at_node_start(std::string_view text, size_t i) {
  char c = text[i];
  if (is_space_or_tab(c)) return Step::kTaken;
  if (c == '-' && flow_ == 0 && (i + 1 == text.size() || is_space_or_tab(text[i + 1])))
    return Step::kTaken;  // a list marker: the node starts after it
  if (c == '"' || c == '\'') {
    quote_ = c;
    node_start_ = false;
    key_plain_ = false;
    return Step::kTaken;
  }
  if ((c == '|' || c == '>') && flow_ == 0) {
    block_parent_ = indent_;  // the lines below, indented deeper, are the block's content
    return Step::kLineEnds;
  }
  return Step::kNotTaken;
}

void TypingScanner::structure(std::string_view text, size_t i) {
  char c = text[i];
  if ((c == '[' || c == '{') && (node_start_ || flow_ > 0)) {
    ++flow_;
    key_part_ = false;
    node_start_ = true;
    return;
  }
  node_start_ = false;
  bool separator = c == ':' && (i + 1 == text.size() || is_space_or_tab(text[i + 1]));
  if (flow_ > 0) {
    if (c == ']' || c == '}') --flow_;
    node_start_ = c == ',' || separator;
  } else if (!key_part_) {
    return;
  } else if (separator) {
    key_part_ = false;
    node_start_ = true;
  } else if (c == ' ' && key_length_ > 0) {
    key_spaced_ = true;
  } else if ((is_key_char(c) || c == ':') && !key_spaced_) {
    ++key_length_;
  } else {
    key_plain_ = false;
  }
}

void TypingScanner::scan(std::string_view text, int number, size_t from) {
  key_part_ = quote_ == 0 && flow_ == 0;
  key_length_ = 0;
  key_plain_ = true;
  key_spaced_ = false;
  node_start_ = quote_ == 0;
  for (size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    // A chart quotes many of its actions ("{{ .Values.image }}"), but never comments them.
    if (quote_ == 0 && c == '#' && (i == 0 || is_space_or_tab(text[i - 1]))) return;
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '{' && is_helm_action(text, i)) {
      report(text, number, i,
             "this looks like a Helm template: render it with `helm template` first, or use the "
             "plugin as helm's `--post-renderer` (see docs/gitops.md)");
      helm_ = true;
      return;
    }
    if (quote_ != 0) {
      i = in_quote(text, i);
    } else if (char32_t code = three_byte_code(text, i); code != 0) {
      if (wide_mark(text, number, i, code)) return;  // one per line: the rest reads wrongly
      i += 2;
    } else {
      Step step = node_start_ ? at_node_start(text, i) : Step::kNotTaken;
      if (step == Step::kLineEnds) return;
      if (step == Step::kNotTaken) structure(text, i);
    }
  }
}

bool TypingScanner::line(std::string_view text, int number) {
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  if (in_block_content(text)) return true;
  size_t content = 0;
  if (quote_ == 0 && flow_ == 0) {
    if (!check_indentation(text, number, &content)) return true;
    indent_ = static_cast<int>(text.find_first_not_of(' '));
  }
  scan(text, number, content);
  return !helm_;
}

/// Most input has none of the bytes these checks look at: one quick look skips the rest.
bool may_need_checks(std::string_view text) {
  return text.find('\t') != std::string_view::npos || text.find("{{") != std::string_view::npos ||
         text.find('\xE2') != std::string_view::npos ||
         text.find('\xE3') != std::string_view::npos || text.find('\xEF') != std::string_view::npos;
}

}  // namespace

std::string wide_digits_hint(std::string_view text) {
  std::string ascii;
  bool wide = false;
  for (size_t i = 0; i < text.size();) {
    char32_t code = three_byte_code(text, i);
    if (code >= 0xFF10 && code <= 0xFF19) {
      ascii += static_cast<char>('0' + (code - 0xFF10));
      wide = true;
    } else if (code == kWideHyphen || code == 0xFF0E) {
      ascii += code == kWideHyphen ? '-' : '.';
    } else if (code == 0 && (std::isdigit(static_cast<unsigned char>(text[i])) != 0 ||
                             text[i] == '-' || text[i] == '.')) {
      ascii += text[i++];
      continue;
    } else {
      return "";
    }
    i += 3;
  }
  if (!wide) return "";
  return "; full-width digits U+FF10-U+FF19 (an input method's full-width mode): use " + ascii;
}

WidePunctuation wide_punctuation(char32_t code) {
  for (const WideEntry& entry : kWideEntries)
    if (entry.code == code) return {entry.name, entry.ascii};
  return {};
}

bool check_typing(const std::string& file, std::string_view text, int first_line,
                  Diagnostics* diagnostics) {
  if (!may_need_checks(text)) return true;
  TypingScanner scanner(file, first_line, diagnostics);
  int number = 0;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (!scanner.line(text.substr(start, end - start), ++number)) break;
    start = end + 1;
  }
  return !scanner.found();
}

}  // namespace trainjob
