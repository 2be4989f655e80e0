// --gang for the Training Operator v1 kinds: Kubernetes' own gang scheduling (the Workload
// API of 1.37, render/scheduling/workload_scheduling.h for TrainJobs) over the Jobs of one operator
// job.
#ifndef TRAINJOB_LEGACY_LEGACY_WORKLOAD_GANG_H_
#define TRAINJOB_LEGACY_LEGACY_WORKLOAD_GANG_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "model/field.h"

namespace trainjob {

/// --gang for a Training Operator v1 job compiled into one Job per pod (legacy/), named
/// `name`: one gang of the Jobs that start at once (a Job that waits for others, as MPI's
/// launcher may, starts on its own), as the Job's own spec.scheduling when there is one,
/// else one Workload and its PodGroup named `name` and the pods in it. False, after
/// reporting at `spec`, when the pods already belong to a gang scheduler's PodGroup.
bool gang_compiled_jobs(const std::string& name, const FieldReader& reader,
                        std::vector<Json>* objects);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_LEGACY_WORKLOAD_GANG_H_
