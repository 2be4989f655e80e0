// Slips of typing that YAML reads as something else, found in the raw text so that each is
// reported where it was typed: full-width punctuation from a Chinese (or Japanese) input
// method, tabs in the indentation, and Helm template syntax in a file not yet rendered.
#ifndef TRAINJOB_LOAD_TYPING_CHECKS_H_
#define TRAINJOB_LOAD_TYPING_CHECKS_H_

#include <string>
#include <string_view>

#include "diag/diagnostic.h"

namespace trainjob {

/// The name of a full-width (or typographic) punctuation mark an input method types in
/// place of YAML's ASCII one, with the ASCII to use: ("full-width colon", ":") for U+FF1A.
/// Empty names for any other code point.
struct WidePunctuation {
  const char* name = nullptr;
  const char* ascii = nullptr;
};
WidePunctuation wide_punctuation(char32_t code);

/// The hint for a number typed with an input method's full-width digits (U+FF10-U+FF19, with
/// a full-width minus sign or full stop): `; full-width digits U+FF10-U+FF19: use 2` for
/// "２". Empty when `text` is not such a number, or has no full-width digit.
std::string wide_digits_hint(std::string_view text);

/// Reports, each at its own line and column, the full-width punctuation that stands where
/// YAML expects its syntax (in a key, the indentation, a flow collection, a list marker,
/// curly quotes that YAML's quotes were needed for), tabs in the indentation, and Helm
/// template actions. Curly quotes around a plain value YAML reads the same either way are a
/// warning (load/curly_quotes.h). Text inside quoted strings, comments and block scalars is
/// content and never reported. `text` is a piece of a stream that starts after `first_line`
/// lines. False when an error was found; warnings alone leave it true.
bool check_typing(const std::string& file, std::string_view text, int first_line,
                  Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_TYPING_CHECKS_H_
