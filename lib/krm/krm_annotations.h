// The annotations by which kpt and kustomize track the items of a function's input: where
// an item was read from (file and position in it) and which input item it is.
#ifndef TRAINJOB_KRM_KRM_ANNOTATIONS_H_
#define TRAINJOB_KRM_KRM_ANNOTATIONS_H_

#include <string>

#include "load/json.h"

namespace trainjob {

/// The file, relative to the package, an item was read from and is written back to.
inline constexpr const char* kKrmPathAnnotation = "config.kubernetes.io/path";
/// Its position among the documents of that file, from 0 (a decimal string).
inline constexpr const char* kKrmIndexAnnotation = "config.kubernetes.io/index";
/// The same two under the names kpt reads first; it sets both and so do we.
inline constexpr const char* kKrmInternalPathAnnotation = "internal.config.kubernetes.io/path";
inline constexpr const char* kKrmInternalIndexAnnotation = "internal.config.kubernetes.io/index";
/// kpt's identity of an input item, by which it carries comments over to the output item
/// of the same id; objects a function creates have none.
inline constexpr const char* kKrmIdAnnotation = "internal.config.kubernetes.io/id";
inline constexpr const char* kKrmLegacyIdAnnotation = "config.k8s.io/id";
/// kustomize's identity of an input resource for a legacy exec transformer.
inline constexpr const char* kKustomizeIdAnnotation = "kustomize.config.k8s.io/id";

/// Where an item came from: its file and index, when the tool said.
struct ItemSource {
  std::string path;  ///< empty: unknown
  long index = -1;   ///< -1: unknown
};

/// The source annotations of `item` (the internal names first, as kpt reads them).
ItemSource item_source(const Json& item);

/// Removes every annotation of the tools' own prefixes (`config.kubernetes.io/`,
/// `internal.config.kubernetes.io/`, `config.k8s.io/`, `kustomize.config.k8s.io/`) from
/// `object`, and the annotations map when that leaves it empty. Rendered objects get them
/// from the TrainJob's metadata; they describe the TrainJob, not the objects.
void strip_tool_annotations(Json* object);

/// Sets the path (when known) and index annotations, both spellings, on `object`.
void set_item_source(Json* object, const ItemSource& source);

}  // namespace trainjob

#endif  // TRAINJOB_KRM_KRM_ANNOTATIONS_H_
