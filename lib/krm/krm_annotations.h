// Reading and writing the annotations (named in model/vocabulary.h) by which kpt and
// kustomize track the items of a function's input: where an item was read from (file and
// position in it) and which input item it is.
#ifndef TRAINJOB_KRM_KRM_ANNOTATIONS_H_
#define TRAINJOB_KRM_KRM_ANNOTATIONS_H_

#include <string>

#include "load/json.h"

namespace trainjob {

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
