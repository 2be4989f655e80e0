// The namespace of the documents that come with the jobs in one input (a ConfigMap, a
// Secret, a ComputeDomain): render pins the jobs' namespace on the objects it compiles
// (metadata.namespace or -n), and a companion without one would land in whatever namespace
// `kubectl apply` is run in, splitting the job across namespaces. When every job of the input
// is in one namespace, namespaced companions that name none get it, as `kubectl apply -n`
// would give it to them; a companion that names another namespace than a job using it is a
// warning at its metadata.namespace. Cluster-scoped kinds, and kinds whose scope is not known
// offline (api_scope), are never given one.
#ifndef TRAINJOB_PIPELINE_COMPANION_NAMESPACE_H_
#define TRAINJOB_PIPELINE_COMPANION_NAMESPACE_H_

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "diag/diagnostic.h"
#include "k8s/api_scope.h"
#include "load/document.h"
#include "load/json.h"
#include "render/compile.h"

namespace trainjob {

/// An object a pod can name, by kind and name: `ConfigMap`, `Secret`, `PersistentVolumeClaim`,
/// `ServiceAccount`, `ResourceClaimTemplate`, `ResourceClaim`, `LocalQueue` (Kueue's, by a
/// Job's queue-name label).
using ObjectRef = std::pair<std::string, std::string>;

/// What the Jobs (and JobSets) among `objects` refer to by name in their own namespace.
std::set<ObjectRef> namespaced_references(const std::vector<Json>& objects);

/// What a companion document is, for those references: a ConfigMap is `{ConfigMap, name}`,
/// a ComputeDomain the ResourceClaimTemplate it makes for the pods (spec.channel.
/// resourceClaimTemplate.name); nothing for other kinds.
std::vector<ObjectRef> provided_references(const Document& document);

/// The namespace the objects of a job document are compiled into: metadata.namespace, else
/// -n, else `default` for the kinds whose pods name their namespace (TFJob, the MPIJobs), else
/// "" (none: the namespace kubectl applies them in); nullopt for a document that is no job.
std::optional<std::string> job_namespace(const Document& document, const CompileOptions& options);

class CompanionNamespaces {
 public:
  /// First pass over the inputs: each job's namespace, each CustomResourceDefinition's scope,
  /// and of each companion a job can refer to its own namespace and what it provides.
  void note(const Document& document, const CompileOptions& options);

  /// The one namespace every job of the inputs is compiled into; "" when there is no job,
  /// jobs of several namespaces, or a job with none.
  std::string job_namespace() const;

  /// `document`'s value, with job_namespace() written into its metadata when it names no
  /// namespace and its kind is namespaced.
  Json pinned_value(const Document& document) const;

  /// "namespace/name" of the noted documents of `kind` in the core group (ConfigMap,
  /// PersistentVolumeClaim) from files not in `failed`: their own namespace, else the pinned
  /// one, else `fallback`.
  std::set<std::string> keys_of(const std::string& kind, const std::string& fallback,
                                const std::set<std::string>& failed = {}) const;

  /// Warns at a companion's metadata.namespace when `job`, compiled into `objects` in the
  /// namespace they state, uses it and it names another namespace, with no companion of the
  /// same name in the job's.
  void check_uses(const Document& job, const std::vector<Json>& objects,
                  Diagnostics* diagnostics) const;

 private:
  struct Companion {
    std::string file;
    SourcePos namespace_pos;
    std::string api_version;
    std::string kind;
    std::string name;
    std::string own_namespace;
    std::vector<ObjectRef> provides;
  };
  bool namespaced(const Companion& companion) const;
  std::string landing_namespace(const Companion& companion) const;

  KindScopes scopes_;
  std::set<std::string> job_namespaces_;
  bool job_without_namespace_ = false;
  std::vector<Companion> companions_;
};

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_COMPANION_NAMESPACE_H_
