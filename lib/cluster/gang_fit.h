// Whether a gang can ever be whole on the nodes its pods may use: a gang larger than what
// those nodes hold, even empty, waits until the cluster grows. `submit` warns before it
// applies one (the cluster autoscaler may yet add nodes, so it is not an error).
#ifndef TRAINJOB_CLUSTER_GANG_FIT_H_
#define TRAINJOB_CLUSTER_GANG_FIT_H_

#include <string>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// For each gang among `objects` (a Job with a gang in its own spec.scheduling; a Workload
/// API PodGroup with a gang minCount, over the Jobs whose pods name it) that `nodes` (v1
/// Nodes) cannot hold at once: "<kind/name>: the gang of N pods fits at most M at once on
/// the K nodes its pods may use ...", with the fix. A node is usable when it is
/// schedulable and has every label of the pods' nodeSelector; a pod takes its containers'
/// requests (limits where a resource has none) and one of the node's `pods`; what runs on
/// the nodes now, affinity and taints are left out. Pods are placed first-fit, in order.
/// Whether any of `objects` gangs pods with the Workload API (so the nodes are worth asking for).
bool has_gang(const std::vector<Json>& objects);

std::vector<std::string> unfit_gangs(const std::vector<Json>& objects,
                                     const std::vector<Json>& nodes);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_GANG_FIT_H_
