// Typographic quotes (“ ” ‘ ’) at the start of a plain YAML value: an input method's quote
// keys type them where YAML's ASCII quotes were meant, but in Chinese (and Japanese) text they
// are ordinary content, so they are an error only where they change what YAML reads.
#ifndef TRAINJOB_LOAD_CURLY_QUOTES_H_
#define TRAINJOB_LOAD_CURLY_QUOTES_H_

#include <string>
#include <string_view>

namespace trainjob {

/// YAML's white space inside a line (s-white): a space or a tab.
inline bool is_space_or_tab(char c) {
  return c == ' ' || c == '\t';
}

enum class CurlyQuotes {
  kContent,  ///< not a pair around the value (`“a” and “b”`, `‘it’s’`): plain text, no finding
  kText,    ///< a pair around the whole value: YAML keeps the marks as text, a warning
  kSyntax,  ///< quotes YAML needed: around a key, or around `: ` or ` #`; an error
};

/// What the opening mark (“ or ‘) at byte `at` of `line` (one line, without its newline) is,
/// where a node starts in block context: after `key: `, `- ` or the indentation. A plain
/// scalar that starts with such a mark is always a string to YAML, never a number or a bool,
/// so the only question is whether it ends where the marks suggest.
CurlyQuotes classify_curly_quotes(std::string_view line, size_t at);

/// The warning for a kText pair: `value “你好” keeps its quotation marks U+201C U+201D as
/// text; if they were meant as YAML quotes, use '"'` (a long value is shortened).
std::string curly_quotes_warning(std::string_view line, size_t at);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_CURLY_QUOTES_H_
