// `status`: what it asks the cluster for one TrainJob (Jobs, pods, pod events, rank 0's
// log), put together into a TrainJobStatus.
#ifndef TRAINJOB_STATUS_STATUS_QUERY_H_
#define TRAINJOB_STATUS_STATUS_QUERY_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "load/json.h"
#include "status/trainjob_status.h"

namespace trainjob {

/// The events of the pods in `name_space`; none when they cannot be read, as they only
/// sharpen the reasons a status gives.
std::vector<Json> pod_events(KubeClient* client, const std::string& name_space);

/// Throws KubeError (kubectl's "not found") when TrainJob `name` has no `jobs` and no
/// Service either: a TrainJob whose Jobs are gone still has its Services.
void ensure_trainjob_exists(KubeClient* client, const std::string& name_space,
                            const std::string& name, const std::vector<Json>& jobs);

/// The status of TrainJob `name` from its `jobs` and `pods`, the pod events and rank 0's
/// progress.
TrainJobStatus status_from(KubeClient* client, const std::string& name_space,
                           const std::string& name, const std::vector<Json>& jobs,
                           const std::vector<Json>& pods);

/// Whether `name` is a TrainJob: some Job or Service carries its trainjob-name label. A
/// TrainJob wins over an OptimizationJob of the same name.
bool trainjob_exists(KubeClient* client, const std::string& name_space, const std::string& name);

/// `status NAME` without a TYPE: the status of TrainJob NAME, as fetch_status gives it (the
/// same requests); null when no Job or Service carries its name, so that the caller looks
/// for an OptimizationJob NAME.
std::optional<TrainJobStatus> fetch_status_if_trainjob(KubeClient* client,
                                                       const std::string& name_space,
                                                       const std::string& name);

/// The status of TrainJob `name` now: lists its Jobs and pods, then as status_from.
TrainJobStatus fetch_status(KubeClient* client, const std::string& name_space,
                            const std::string& name);

/// The frame `status --watch` ends on, once `seen` (from the watch's copy of the objects)
/// has finished: the Jobs and pods listed anew, as `status` would show them. The watch's
/// two streams may show a Job Failed before its pods' exit codes, and that last frame is
/// what a CI log keeps.
TrainJobStatus final_frame(KubeClient* client, const std::string& name_space,
                           const std::string& name, const TrainJobStatus& seen);

/// `status --watch`: calls `on_status` with the status of TrainJob `name` whenever its Jobs or
/// pods change, and every 30 s besides (rank 0's progress moves while the objects do not),
/// until it has finished (the last call with final_frame); whether it completed.
bool watch_status(KubeClient* client, const std::string& name_space, const std::string& name,
                  const std::function<void(const TrainJobStatus&)>& on_status);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_STATUS_QUERY_H_
