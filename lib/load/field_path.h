// Field paths name a place in a document the way Kubernetes error messages do:
// `spec.trainer.env[2].name`, `metadata.labels[app.kubernetes.io/name]`.
#ifndef TRAINJOB_LOAD_FIELD_PATH_H_
#define TRAINJOB_LOAD_FIELD_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace trainjob {

/// `parent.key`, or `parent[key]` when the key is not a plain identifier.
std::string field_child(std::string_view parent, std::string_view key);
/// `parent[index]`.
std::string field_index(std::string_view parent, size_t index);
/// The path one level up (`a.b[1]` -> `a.b`, `a` -> ``).
std::string_view field_parent(std::string_view path);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_FIELD_PATH_H_
