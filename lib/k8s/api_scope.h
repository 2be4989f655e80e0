// Which API group an apiVersion names, and whether objects of a kind live in a namespace:
// what `kubectl apply -n` asks the API server's discovery, answered offline from a table of
// the kinds render meets beside training jobs (Kubernetes' own, Kueue, JobSet, the gang
// schedulers, NVIDIA's ComputeDomain, Kubeflow's), and from the CustomResourceDefinitions
// among the inputs.
#ifndef TRAINJOB_K8S_API_SCOPE_H_
#define TRAINJOB_K8S_API_SCOPE_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "load/document.h"

namespace trainjob {

/// The group of `api_version`: "batch" for `batch/v1`, "" for the core group's `v1`.
std::string_view api_group(std::string_view api_version);

/// True for a group only Kubernetes itself serves (no dot: `batch`, `apps`, the core group):
/// a CustomResourceDefinition's group must contain a dot.
bool is_builtin_group(std::string_view group);

enum class ObjectScope { kNamespaced, kCluster, kUnknown };

/// The scope of `kind` in `group` by the table; kUnknown for a kind it does not list.
ObjectScope known_kind_scope(std::string_view group, std::string_view kind);

/// The table, plus the kinds the CustomResourceDefinitions among the inputs define.
class KindScopes {
 public:
  /// Records `document` when it is a CustomResourceDefinition (its spec.group,
  /// spec.names.kind and spec.scope).
  void note(const Document& document);
  /// The scope of `kind` of `api_version`: an input CRD's first, else the table's.
  ObjectScope scope_of(std::string_view api_version, std::string_view kind) const;

 private:
  std::map<std::pair<std::string, std::string>, ObjectScope> defined_;
};

}  // namespace trainjob

#endif  // TRAINJOB_K8S_API_SCOPE_H_
