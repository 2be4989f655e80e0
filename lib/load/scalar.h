// Plain-scalar resolution as Kubernetes does it (YAML 1.1 through sigs.k8s.io/yaml): what an
// unquoted `yes`, `0644` or `1e3` becomes.
#ifndef TRAINJOB_LOAD_SCALAR_H_
#define TRAINJOB_LOAD_SCALAR_H_

#include <string>

#include "load/json.h"

namespace trainjob {

/// The JSON value of one plain (unquoted) YAML scalar.
Json resolve_plain_scalar(std::string text);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_SCALAR_H_
