// `status` of a running job: the progress rank 0 last printed, read from the last lines of
// its pod's log (the pods/log read `logs` needs too, no other permission).
#ifndef TRAINJOB_STATUS_STATUS_PROGRESS_H_
#define TRAINJOB_STATUS_STATUS_PROGRESS_H_

#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "load/json.h"
#include "model/trainer_progress.h"
#include "status/trainjob_status.h"

namespace trainjob {

/// How many log lines are searched for the last progress line.
inline constexpr int kProgressTailLines = 200;

/// The node whose log carries rank 0's progress: node 0 of the TrainJob's trainer step (the
/// Job labelled trainjob-ancestor-step trainer: `node`, MPI's `launcher`), or for a legacy
/// kind the first of master, launcher, chief, worker with index 0. Null when none.
const NodeStatus* rank0_node(const TrainJobStatus& status, const std::vector<Json>& jobs);

/// The pods/log path of that node's pod (with `?container=`, more parameters to follow);
/// empty when it has no pod yet.
std::string rank0_log_path(const std::string& name_space, const TrainJobStatus& status,
                           const std::vector<Json>& jobs, const std::vector<Json>& pods);

/// The body of GET `path`; empty when it cannot be read (a pod not started, its node gone):
/// what a log says only adds to a status.
std::string read_log_quietly(KubeClient* client, const std::string& path);

/// The progress in the last kProgressTailLines lines of that node's log while the job runs;
/// null when it is not running, prints none, or the log cannot be read. The progress lines
/// among them that are not JSON are counted into `bad`.
std::optional<TrainerProgress> fetch_rank0_progress(
    KubeClient* client, const std::string& name_space, const TrainJobStatus& status,
    const std::vector<Json>& jobs, const std::vector<Json>& pods, BadProgressLines* bad);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_STATUS_PROGRESS_H_
