// The scalars BlockEventReader reads: plain or quoted, each on one line. Each scanner
// either finds what libyaml would find there or throws OutsideSubset.
#ifndef TRAINJOB_LOAD_YAML_BLOCK_SCALARS_H_
#define TRAINJOB_LOAD_YAML_BLOCK_SCALARS_H_

#include <cstddef>
#include <string_view>
#include <yaml.h>

namespace trainjob {

/// A scalar found on a line: [begin, end) of its value, and where scanning goes on.
struct ScannedScalar {
  size_t begin = 0;
  size_t end = 0;
  size_t after = 0;
  yaml_scalar_style_t style = YAML_PLAIN_SCALAR_STYLE;
};

bool is_blank_at(std::string_view text, size_t i);
/// A `-` at `i` that starts a sequence entry (a `-` before other text starts a scalar).
inline bool is_entry_dash(std::string_view text, size_t i) {
  return text[i] == '-' && (i + 1 >= text.size() || text[i + 1] == ' ');
}
size_t skip_spaces(std::string_view text, size_t i);
/// After a scalar: only spaces, then the line's end or a comment.
bool rest_is_blank_or_comment(std::string_view text, size_t i);

/// A mapping key at `column` and the colon after it; false where the line holds no key there.
bool scan_key(std::string_view text, size_t column, ScannedScalar* key, size_t* colon);
/// The value at `column`, which is the rest of the line but for a comment.
ScannedScalar scan_value(std::string_view text, size_t column);
/// A scalar inside a one-line flow collection.
ScannedScalar scan_flow_scalar(std::string_view text, size_t column);
/// A quoted scalar that closes on its line, with no escapes (`\` or `''`) to undo.
bool scan_quoted(std::string_view text, size_t column, ScannedScalar* scalar);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_BLOCK_SCALARS_H_
