// The minResources of the PodGroup a gang-scheduled legacy job gets when its
// schedulingPolicy names none, computed from the pods as each operator computes it: the
// Training Operator v1.9 (CalcPGMinResources, every v1 kind) and mpi-operator
// (calPGMinResource, the v2beta1 MPIJob). Both count the first minMember pods by the
// PriorityClass value of each replica type, which needs the cluster; offline every
// priority is taken as equal (gang_order_depends_on_priority says when that matters).
#ifndef TRAINJOB_LEGACY_GANG_RESOURCES_H_
#define TRAINJOB_LEGACY_GANG_RESOURCES_H_

#include <cstdint>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// One replica type as the sums see it.
struct GangReplica {
  int64_t replicas = 0;
  const Json* pod_spec = nullptr;  ///< its template's spec
};

/// The Training Operator's sum: replica types in the given order (the operator's is by
/// priority, in no set order among equals), pods counted until `min_member` are; each pod
/// adds every container's requests, or its limits when the container has no requests at
/// all (not per resource). Init containers are not counted. A ResourceList object of
/// canonical quantities, keys sorted; `{}` when nothing was counted.
Json training_operator_min_resources(const std::vector<GangReplica>& replicas, int64_t min_member);

/// mpi-operator's sum for equal priorities: when the launcher's and the workers' pods
/// outnumber `min_member`, the workers are cut to min_member - 1 (to none at 1); each
/// container adds its requests and, per resource, its limits where it requests nothing, times
/// the replicas (a cut to none still lists the workers' resources, as 0).
Json mpi_operator_min_resources(const GangReplica& launcher, const GangReplica* worker,
                                int64_t min_member);

/// The resources one pod of `replica` adds to the Training Operator's sum, for telling
/// whether replica types differ.
Json training_operator_pod_resources(const GangReplica& replica);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_GANG_RESOURCES_H_
