// JSON text for reports, written directly: a report of many thousands of findings is
// written in a fraction of the time a JSON value tree takes, and text that is not valid
// UTF-8 cannot make it fail.
#ifndef TRAINJOB_OUTPUT_JSON_TEXT_H_
#define TRAINJOB_OUTPUT_JSON_TEXT_H_

#include <string>
#include <string_view>

namespace trainjob {

/// Appends `text` as a quoted JSON string. Bytes that are not valid UTF-8 become U+FFFD.
void append_json_string(std::string_view text, std::string* out);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_JSON_TEXT_H_
