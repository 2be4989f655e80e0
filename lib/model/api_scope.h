// Which API group an apiVersion names, and whether Kubernetes alone serves that group.
#ifndef TRAINJOB_MODEL_API_SCOPE_H_
#define TRAINJOB_MODEL_API_SCOPE_H_

#include <string_view>

namespace trainjob {

/// The group of `api_version`: "batch" for `batch/v1`, "" for the core group's `v1`.
std::string_view api_group(std::string_view api_version);

/// True for a group only Kubernetes itself serves (no dot: `batch`, `apps`, the core group):
/// a CustomResourceDefinition's group must contain a dot.
bool is_builtin_group(std::string_view group);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_API_SCOPE_H_
