// A submitted TrainJob is the set of objects labelled with its name: finding and removing it.
#ifndef TRAINJOB_CLUSTER_TRAINJOB_OBJECTS_H_
#define TRAINJOB_CLUSTER_TRAINJOB_OBJECTS_H_

#include <functional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/environment.h"
#include "load/json.h"

namespace trainjob {

/// What `submit` applied for the TrainJob, found by its labels (kCreatedBySubmitLabel):
/// Jobs first (so no new pods start), then PodGroups, the Service, ConfigMaps, Secrets and
/// any other kind the objects record in kSubmittedKindsAnnotation. Kinds the cluster does
/// not serve (a PodGroup CRD not installed) are skipped. Objects that only carry the
/// TrainJob's name label are the user's own and are not among them.
std::vector<Json> find_trainjob_objects(KubeClient* client, const std::string& name_space,
                                        const std::string& name);

/// Deletes each (propagationPolicy=Background, so pods go too); returns what was deleted.
std::vector<std::string> delete_objects(KubeClient* client, const std::string& name_space,
                                        const std::vector<Json>& objects);

/// `delete`: deletes what find_trainjob_objects finds, calling `on_deleted` with each object
/// deleted (one already gone is skipped). Throws KubeError, as kubectl's "not found", when
/// nothing carries the TrainJob's labels.
void delete_trainjob(KubeClient* client, const std::string& name_space, const std::string& name,
                     const std::function<void(const Json&)>& on_deleted);

/// Polls until no object and no pod of the TrainJob is left; false on timeout
/// (`timeout_seconds` <= 0: no limit).
bool wait_until_gone(KubeClient* client, const Clock& clock, const std::string& name_space,
                     const std::string& name, double timeout_seconds);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_TRAINJOB_OBJECTS_H_
