// A submitted TrainJob is the set of objects labelled with its name: finding and removing it.
#ifndef TRAINJOB_STATUS_TRAINJOB_OBJECTS_H_
#define TRAINJOB_STATUS_TRAINJOB_OBJECTS_H_

#include <functional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/environment.h"
#include "load/document.h"
#include "load/json.h"
#include "status/trainjob_names.h"

namespace trainjob {

/// What `submit` applied for the TrainJob, found by its labels (kCreatedBySubmitLabel):
/// Jobs first (so no new pods start), then PodGroups, the Service, ConfigMaps, Secrets and
/// any other kind the objects record in kSubmittedKindsAnnotation. Kinds the cluster does
/// not serve (a PodGroup CRD not installed) are skipped. Objects that only carry the
/// TrainJob's name label are the user's own and are not among them.
std::vector<Json> find_trainjob_objects(KubeClient* client, const std::string& name_space,
                                        const std::string& name);

/// What `delete` deletes: what submit applied, or else, for a TrainJob rendered and applied
/// with `kubectl apply`, the objects carrying render's labels (the TrainJob's name and
/// app.kubernetes.io/managed-by=kubectl-trainjob): objects the user labelled with only the
/// TrainJob's name are never among them.
struct FoundTrainJob {
  std::vector<Json> objects;
  bool applied_by_kubectl = false;  ///< found by render's labels, not submit's
};
FoundTrainJob find_deletable_objects(KubeClient* client, const std::string& name_space,
                                     const std::string& name);
/// "found 3 Jobs, 1 Service" and, when kubectl applied them, by which labels they were found.
std::string describe_found(const FoundTrainJob& found, const std::string& name);

/// `delete TYPE/NAME` of a job found to be of another kind is kubectl's "not found" for
/// that kind: throws KubeError saying what the job is. No check for a null `kind`.
void check_found_kind(const FoundTrainJob& found, const ManagedKind* kind, const std::string& name);

/// What the found Jobs' pods used that delete leaves, as it does not carry the labels delete
/// looks for (the user made it, or it came from the inputs and was applied with kubectl
/// apply): the ConfigMaps, Secrets and PersistentVolumeClaims they mount or take env from
/// that exist and are not among `found`, as `configmap/NAME`, each once.
std::vector<std::string> left_behind(KubeClient* client, const std::string& name_space,
                                     const FoundTrainJob& found);

/// Deletes each (propagationPolicy=Background, so pods go too); returns what was deleted.
std::vector<std::string> delete_objects(KubeClient* client, const std::string& name_space,
                                        const std::vector<Json>& objects);

/// `delete`: deletes what find_deletable_objects finds, calling `on_deleted` with each object
/// deleted (one already gone is skipped). Throws KubeError, as kubectl's "not found", when
/// nothing carries the TrainJob's labels, saying which labels were looked for.
void delete_trainjob(KubeClient* client, const std::string& name_space, const std::string& name,
                     const std::function<void(const Json&)>& on_deleted);
/// The same for objects already found.
void delete_found(KubeClient* client, const std::string& name_space, const std::string& name,
                  const FoundTrainJob& found, const std::function<void(const Json&)>& on_deleted);

/// A job a file describes, for `delete -f`.
struct DescribedTrainJob {
  std::string name_space;
  std::string name;
  std::string kind;  ///< TrainJob, OptimizationJob, PyTorchJob, ...
};
/// The TrainJobs, OptimizationJobs and Training Operator jobs among `documents`, each in its own
/// namespace or else `default_namespace`. With `namespace_given` (-n), a document of another
/// namespace is an error, as in kubectl; so is a file that describes no job. On error,
/// empty and `*error` says why.
std::vector<DescribedTrainJob> described_trainjobs(const std::vector<Document>& documents,
                                                   const std::string& default_namespace,
                                                   bool namespace_given, std::string* error);

/// Polls until no object and no pod of the TrainJob is left; false on timeout
/// (`timeout_seconds` <= 0: no limit).
bool wait_until_gone(KubeClient* client, const Clock& clock, const std::string& name_space,
                     const std::string& name, double timeout_seconds);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_TRAINJOB_OBJECTS_H_
