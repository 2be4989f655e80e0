// Block-style YAML emitter for the manifests the plugin prints.
#ifndef TRAINJOB_OUTPUT_YAML_WRITER_H_
#define TRAINJOB_OUTPUT_YAML_WRITER_H_

#include <string>

#include "load/json.h"

namespace trainjob {

/// Appends one YAML document (no leading "---") for `value` to *out, keys in the order they
/// are in (sort_keys in load/json_keys.h sorts them as kubectl does), block style, in the style
/// `kubectl get -o yaml` prints: 2-space indentation, sequences NOT indented under their parent key
///   spec:
///     containers:
///     - name: node
///       args:
///       - a
/// empty object -> `{}`, empty array -> `[]`, null -> `null`.
///
/// Every string reads back as the same string under both the YAML 1.2 core schema and the YAML 1.1
/// rules go-yaml v2 (and so Kubernetes) applies: strings that would resolve to another type or
/// break the syntax are single-quoted; strings with control or non-printable characters are
/// double-quoted with escapes; multi-line strings in value position become `|` block scalars.
/// Invalid UTF-8 bytes are written as `\xNN` escapes (YAML text is Unicode, so they read back
/// as U+00NN). Throws std::invalid_argument for binary or discarded values, which have no YAML
/// form.
void write_yaml(const Json& value, std::string* out);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_YAML_WRITER_H_
