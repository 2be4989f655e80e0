// The containers of a Training Operator v1 replica's pod template, checked as the API
// server and the kubelet will read them: every kind, the MPIJobs too, calls this on each
// replica it reads.
#ifndef TRAINJOB_LEGACY_LEGACY_CONTAINERS_H_
#define TRAINJOB_LEGACY_LEGACY_CONTAINERS_H_

#include <string>

#include "load/json.h"
#include "model/field.h"

namespace trainjob {

/// Errors at the user's fields for a container or init container with no image or an
/// image that is no reference, and for a request above its limit. `template_path` is the
/// replica's `...template`. False on any error.
bool check_legacy_containers(const FieldReader& reader, const std::string& template_path,
                             const Json& pod_template);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_LEGACY_CONTAINERS_H_
