// Where objects live in the REST API: kind -> resource path, as discovery would say.
#ifndef TRAINJOB_KUBE_RESOURCES_H_
#define TRAINJOB_KUBE_RESOURCES_H_

#include <string>

#include "load/json.h"
#include "render/jobset_labels.h"

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

std::string collection_path(const ResourceType& type, const std::string& name_space);
std::string object_path(const ResourceType& type, const std::string& name_space,
                        const std::string& name);

/// The types a TrainJob's objects come in, in the order they are applied.
const ResourceType& config_map_type();
const ResourceType& secret_type();
const ResourceType& service_type();
const ResourceType& persistent_volume_claim_type();
const ResourceType& job_type();
const ResourceType& pod_type();
const ResourceType& event_type();
const ResourceType& coscheduling_pod_group_type();
const ResourceType& volcano_pod_group_type();

// The labels render puts on every object of a TrainJob (kTrainJobNameLabel, kManagedByLabel,
// kCompletionIndexAnnotation, ...) come from render/jobset_labels.h. A Job's or pod's step
// and index are read through step_place_of (render/operator_labels.h), which knows the
// JobSet labels of a TrainJob's objects and the Training Operator's.
constexpr const char kJobNameLabel[] = "batch.kubernetes.io/job-name";
constexpr const char kFieldManager[] = "kubectl-trainjob";
// Kueue's queue label: a Job carrying it is admitted (unsuspended) by Kueue, which owns
// spec.suspend then.
constexpr const char kQueueNameLabel[] = "kueue.x-k8s.io/queue-name";
// What `submit` puts on every object it applies, so that `delete` removes exactly those: an
// object the user made with the TrainJob's label but without this one is not ours.
constexpr const char kCreatedBySubmitLabel[] = "kubectl-trainjob/created-by-submit";
constexpr const char kCreatedBySubmitValue[] = "true";
// Beside it, the kinds `submit` applied ("v1/Secret,batch/v1/Job"), so that `delete` also
// looks for a kind from the inputs outside the usual ones (a PersistentVolumeClaim, say).
constexpr const char kSubmittedKindsAnnotation[] = "kubectl-trainjob/submitted-kinds";

/// `trainer.kubeflow.org/trainjob-name=NAME`, URL-escaped for a query.
std::string trainjob_selector(const std::string& name);
/// The same and `kubectl-trainjob/created-by-submit=true`: what `submit` applied.
std::string submitted_selector(const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_RESOURCES_H_
