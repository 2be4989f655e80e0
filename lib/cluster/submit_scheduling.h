// What `submit` checks of Kubernetes' own gang scheduling (render/scheduling/workload_scheduling.h)
// against the server's dry run: a cluster without the Workload API refuses or silently drops
// what asks for a gang, and the pods would then start one by one.
#ifndef TRAINJOB_CLUSTER_SUBMIT_SCHEDULING_H_
#define TRAINJOB_CLUSTER_SUBMIT_SCHEDULING_H_

#include <cstdio>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/objects.h"
#include "load/json.h"

namespace trainjob {

/// Why `object` cannot gang its pods on this cluster, said with the fix, from the dry run
/// of its apply: a Workload or PodGroup of a group the server does not serve, or a Job whose
/// spec.scheduling (gate WorkloadWithJob) or pod spec.schedulingGroup (gate GenericWorkload)
/// the answer no longer has. Empty when nothing is wrong.
std::string gang_scheduling_refusal(const Json& object, const ApplyResult& dry_run);

/// Warns on `err` of each gang among `objects` that the cluster's nodes cannot hold at once
/// (cluster/gang_fit.h). Nodes are listed only when there is a gang, and a user who may not
/// list them gets no warning.
void warn_unfit_gangs(KubeClient* client, const std::vector<Json>& objects, std::FILE* err);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_SCHEDULING_H_
