#include "k8s/api_scope.h"

#include "load/json.h"

namespace trainjob {
namespace {

struct KindScope {
  std::string_view group;
  std::string_view kind;
  ObjectScope scope;
};

constexpr ObjectScope kNs = ObjectScope::kNamespaced;
constexpr ObjectScope kCluster = ObjectScope::kCluster;

/// The kinds whose scope render knows without a cluster. A kind not listed is left alone:
/// giving a cluster-scoped object a namespace is worse than leaving a namespaced one without.
constexpr KindScope kKindScopes[] = {
    // Kubernetes
    {"", "ConfigMap", kNs},
    {"", "Secret", kNs},
    {"", "Service", kNs},
    {"", "ServiceAccount", kNs},
    {"", "PersistentVolumeClaim", kNs},
    {"", "Pod", kNs},
    {"", "PodTemplate", kNs},
    {"", "ReplicationController", kNs},
    {"", "Endpoints", kNs},
    {"", "LimitRange", kNs},
    {"", "ResourceQuota", kNs},
    {"", "Event", kNs},
    {"", "Namespace", kCluster},
    {"", "Node", kCluster},
    {"", "PersistentVolume", kCluster},
    {"", "ComponentStatus", kCluster},
    {"apps", "Deployment", kNs},
    {"apps", "StatefulSet", kNs},
    {"apps", "DaemonSet", kNs},
    {"apps", "ReplicaSet", kNs},
    {"apps", "ControllerRevision", kNs},
    {"batch", "Job", kNs},
    {"batch", "CronJob", kNs},
    {"autoscaling", "HorizontalPodAutoscaler", kNs},
    {"policy", "PodDisruptionBudget", kNs},
    {"networking.k8s.io", "NetworkPolicy", kNs},
    {"networking.k8s.io", "Ingress", kNs},
    {"networking.k8s.io", "IngressClass", kCluster},
    {"rbac.authorization.k8s.io", "Role", kNs},
    {"rbac.authorization.k8s.io", "RoleBinding", kNs},
    {"rbac.authorization.k8s.io", "ClusterRole", kCluster},
    {"rbac.authorization.k8s.io", "ClusterRoleBinding", kCluster},
    {"coordination.k8s.io", "Lease", kNs},
    {"discovery.k8s.io", "EndpointSlice", kNs},
    {"events.k8s.io", "Event", kNs},
    {"storage.k8s.io", "CSIStorageCapacity", kNs},
    {"storage.k8s.io", "StorageClass", kCluster},
    {"storage.k8s.io", "CSIDriver", kCluster},
    {"storage.k8s.io", "CSINode", kCluster},
    {"storage.k8s.io", "VolumeAttachment", kCluster},
    {"storage.k8s.io", "VolumeAttributesClass", kCluster},
    {"scheduling.k8s.io", "PriorityClass", kCluster},
    {"node.k8s.io", "RuntimeClass", kCluster},
    {"apiextensions.k8s.io", "CustomResourceDefinition", kCluster},
    {"apiregistration.k8s.io", "APIService", kCluster},
    {"admissionregistration.k8s.io", "ValidatingWebhookConfiguration", kCluster},
    {"admissionregistration.k8s.io", "MutatingWebhookConfiguration", kCluster},
    {"admissionregistration.k8s.io", "ValidatingAdmissionPolicy", kCluster},
    {"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding", kCluster},
    {"certificates.k8s.io", "CertificateSigningRequest", kCluster},
    {"flowcontrol.apiserver.k8s.io", "FlowSchema", kCluster},
    {"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", kCluster},
    {"resource.k8s.io", "ResourceClaim", kNs},
    {"resource.k8s.io", "ResourceClaimTemplate", kNs},
    {"resource.k8s.io", "DeviceClass", kCluster},
    {"resource.k8s.io", "ResourceSlice", kCluster},
    // Kubeflow
    {"trainer.kubeflow.org", "TrainJob", kNs},
    {"trainer.kubeflow.org", "TrainingRuntime", kNs},
    {"trainer.kubeflow.org", "ClusterTrainingRuntime", kCluster},
    {"kubeflow.org", "Notebook", kNs},
    {"kubeflow.org", "PodDefault", kNs},
    {"kubeflow.org", "Experiment", kNs},
    {"kubeflow.org", "Trial", kNs},
    {"kubeflow.org", "Suggestion", kNs},
    {"kubeflow.org", "ScheduledWorkflow", kNs},
    {"kubeflow.org", "Profile", kCluster},
    // The schedulers and queues a training job is admitted by, and the objects around it
    {"jobset.x-k8s.io", "JobSet", kNs},
    {"kueue.x-k8s.io", "LocalQueue", kNs},
    {"kueue.x-k8s.io", "Workload", kNs},
    {"kueue.x-k8s.io", "ClusterQueue", kCluster},
    {"kueue.x-k8s.io", "ResourceFlavor", kCluster},
    {"kueue.x-k8s.io", "Cohort", kCluster},
    {"kueue.x-k8s.io", "WorkloadPriorityClass", kCluster},
    {"kueue.x-k8s.io", "AdmissionCheck", kCluster},
    {"kueue.x-k8s.io", "Topology", kCluster},
    {"scheduling.x-k8s.io", "PodGroup", kNs},
    {"scheduling.x-k8s.io", "ElasticQuota", kNs},
    {"scheduling.volcano.sh", "PodGroup", kNs},
    {"scheduling.volcano.sh", "Queue", kCluster},
    {"batch.volcano.sh", "Job", kNs},
    {"resource.nvidia.com", "ComputeDomain", kNs},
    {"monitoring.coreos.com", "ServiceMonitor", kNs},
    {"monitoring.coreos.com", "PodMonitor", kNs},
    {"monitoring.coreos.com", "PrometheusRule", kNs},
};

}  // namespace

std::string_view api_group(std::string_view api_version) {
  size_t slash = api_version.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

bool is_builtin_group(std::string_view group) {
  return group.find('.') == std::string_view::npos;
}

ObjectScope known_kind_scope(std::string_view group, std::string_view kind) {
  for (const KindScope& entry : kKindScopes) {
    if (entry.group == group && entry.kind == kind) return entry.scope;
  }
  return ObjectScope::kUnknown;
}

void KindScopes::note(const Document& document) {
  if (api_group(document.api_version()) != "apiextensions.k8s.io" ||
      document.kind() != "CustomResourceDefinition") {
    return;
  }
  const Json& spec = json_member(document.value, "spec");
  std::string group = string_member(spec, "group");
  std::string kind = string_member(json_member(spec, "names"), "kind");
  std::string scope = string_member(spec, "scope");
  if (group.empty() || kind.empty()) return;
  if (scope == "Namespaced") {
    defined_[{group, kind}] = ObjectScope::kNamespaced;
  } else if (scope == "Cluster") {
    defined_[{group, kind}] = ObjectScope::kCluster;
  }
}

ObjectScope KindScopes::scope_of(std::string_view api_version, std::string_view kind) const {
  std::string_view group = api_group(api_version);
  auto it = defined_.find({std::string(group), std::string(kind)});
  if (it != defined_.end()) return it->second;
  return known_kind_scope(group, kind);
}

}  // namespace trainjob
