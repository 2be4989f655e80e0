// `resume` and `suspend`: spec.suspend of a submitted TrainJob's Jobs, as the Trainer
// controller sets it on the JobSet when TrainJob.spec.suspend changes.
#ifndef TRAINJOB_CLUSTER_SUSPEND_H_
#define TRAINJOB_CLUSTER_SUSPEND_H_

#include <cstdio>
#include <string>

#include "kube/client.h"

namespace trainjob {

/// Patches spec.suspend of every Job of the TrainJob (JSON merge patch) and reports each
/// Job on `out`. Refuses (exit 1, nothing changed) when a Job carries Kueue's queue label:
/// Kueue owns spec.suspend then; and resuming a TrainJob that failed (Failed is terminal). Throws
/// KubeError when the TrainJob has no Jobs.
int set_trainjob_suspended(KubeClient* client, const std::string& name_space,
                           const std::string& name, bool suspend, std::FILE* out, std::FILE* err);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUSPEND_H_
