// Where objects live in the REST API: kind -> resource path, as discovery would say.
#ifndef TRAINJOB_KUBE_RESOURCES_H_
#define TRAINJOB_KUBE_RESOURCES_H_

#include <string>

#include "load/json.h"
#include "model/vocabulary.h"

namespace trainjob {

struct ResourceType {
  std::string api_version;
  std::string kind;
  std::string plural;
  bool namespaced = true;

  std::string group() const;
  /// `job.batch`, `service`: the names kubectl prints.
  std::string qualified_kind() const;
};

/// Known kinds come from a table; others get kubectl's regular plural of the lowercased kind.
ResourceType resource_type(const std::string& api_version, const std::string& kind);
ResourceType resource_type_of(const Json& object);

/// An empty `name_space` is every namespace (kubectl's --all-namespaces), for a LIST.
std::string collection_path(const ResourceType& type, const std::string& name_space);
std::string object_path(const ResourceType& type, const std::string& name_space,
                        const std::string& name);

/// The types a TrainJob's objects come in, in the order they are applied.
const ResourceType& config_map_type();
const ResourceType& secret_type();
const ResourceType& service_type();
const ResourceType& job_type();
const ResourceType& pod_type();
const ResourceType& node_type();
const ResourceType& event_type();
const ResourceType& coscheduling_pod_group_type();
const ResourceType& volcano_pod_group_type();
/// Kubernetes' own (scheduling.k8s.io/v1beta1, gang scheduling with nothing installed).
const ResourceType& workload_type();
const ResourceType& workload_pod_group_type();
const ResourceType& kai_pod_group_type();

/// `trainer.kubeflow.org/trainjob-name=NAME`, URL-escaped for a query.
std::string trainjob_selector(const std::string& name);
/// The same and `kubectl-trainjob/created-by-submit=true`: what `submit` applied.
std::string submitted_selector(const std::string& name);
/// The same and `app.kubernetes.io/managed-by=kubectl-trainjob`: what `render` labels, found
/// also when the user applied it with `kubectl apply`.
std::string rendered_selector(const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_RESOURCES_H_
