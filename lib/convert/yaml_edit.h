// Text-preserving edits of a YAML document: only the subtrees that changed are written anew,
// so comments, quoting and key order of everything else stay as the user wrote them and a
// converted file makes a readable diff.
#ifndef TRAINJOB_CONVERT_YAML_EDIT_H_
#define TRAINJOB_CONVERT_YAML_EDIT_H_

#include <string>
#include <string_view>
#include <vector>

#include "load/document.h"

namespace trainjob {

/// The lines of a text, without their line breaks.
std::vector<std::string_view> split_lines(std::string_view text);

/// Rewrites `lines` (the text of `before`, whose first line is line `first_line` of its file,
/// counted from 1) so that it reads as `after`. Mappings written in block style are edited
/// key by key: an unchanged entry keeps its text and the comment lines above it, a changed
/// scalar, sequence or flow value is replaced by newly emitted YAML at the entry's
/// indentation, a new key is written where `after` puts it, a removed key goes with its
/// comments. False when the text is not in a form this can edit (flow or JSON documents,
/// merge keys, complex keys): the caller then emits the whole document.
bool edit_yaml_document(const Document& before, const std::vector<std::string_view>& lines,
                        int first_line, const Json& after, std::string* out);

/// `{key: value}` as block YAML with every line indented by `indent` spaces.
std::string emit_entry(const std::string& key, const Json& value, int indent);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_YAML_EDIT_H_
