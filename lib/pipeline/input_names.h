// The names in input documents that end up in paths: file names under --output-dir
// (namespace, kind, name), and files and directories under run --local's work directory
// (ConfigMap and Secret keys, volume names, items[].path). They are checked for every
// document, passed through or compiled, with the API server's own rules, so hostile input
// is refused by `validate` as by `render`, at the field, before anything is written.
#ifndef TRAINJOB_PIPELINE_INPUT_NAMES_H_
#define TRAINJOB_PIPELINE_INPUT_NAMES_H_

#include <string>
#include <string_view>

#include "diag/diagnostic.h"
#include "load/document.h"

namespace trainjob {

/// RFC 1123 subdomain: lower-case labels joined by '.', at most 253 characters.
bool is_dns1123_subdomain(std::string_view name);
/// A ConfigMap or Secret key: [-._a-zA-Z0-9]+, at most 253 characters, not "." or "..".
bool is_config_map_key(std::string_view key);
/// A kind: a letter, then letters and digits.
bool is_kind_name(std::string_view kind);

/// Adds an error for each name in `document` that breaks its rule. TrainJob names are
/// left to the compiler, which knows the names derived from them.
void check_input_names(const Document& document, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_INPUT_NAMES_H_
