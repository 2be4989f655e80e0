// Kubernetes strategic merge patch for pod templates, as the Trainer applies
// podTemplateOverrides: lists with a patch merge key merge item by item, others
// are replaced, mappings merge per key.
#ifndef TRAINJOB_K8S_STRATEGIC_MERGE_H_
#define TRAINJOB_K8S_STRATEGIC_MERGE_H_

#include <string_view>

#include "load/json.h"

namespace trainjob {

/// The patch merge key of a list field of the pod template API (`containers` -> `name`,
/// `volumeMounts` -> `mountPath`), or empty when the list is replaced as a whole
/// (`tolerations`, `args`, `nodeSelectorTerms`, ...).
std::string_view patch_merge_key(std::string_view list_field);

/// Merges `patch` into `*target`. A null in the patch changes nothing: overrides are typed
/// structs upstream, whose unset fields never reach the patch.
void strategic_merge(Json* target, const Json& patch);

}  // namespace trainjob

#endif  // TRAINJOB_K8S_STRATEGIC_MERGE_H_
