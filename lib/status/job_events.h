// `events`: the events of one TrainJob (of the job itself, its Jobs, its Service and its pods,
// those already gone included), oldest first, in kubectl events' table: the Kubeflow SDK's
// get_job_events for the shell.
#ifndef TRAINJOB_STATUS_JOB_EVENTS_H_
#define TRAINJOB_STATUS_JOB_EVENTS_H_

#include <string>
#include <vector>

#include "kube/client.h"
#include "load/json.h"

namespace trainjob {

/// Among `events` (a namespace's), those of the job `name` of kind `kind` (TrainJob,
/// PyTorchJob), of the `jobs` and `services` named, and of pods of those Jobs: a pod of Job J
/// is named J-RANDOM or J-INDEX-RANDOM, so the events of pods since replaced count too.
/// Sorted as kubectl events sorts them: by series.lastObservedTime, else lastTimestamp, else
/// eventTime, the list's order kept between equals.
std::vector<Json> events_of_job(const std::vector<Json>& events, const std::string& kind,
                                const std::string& name, const std::vector<std::string>& jobs,
                                const std::vector<std::string>& services);

/// kubectl events' table: LAST SEEN (`5s`, `2m (x3 over 10m)` for a repeated event), TYPE,
/// REASON, OBJECT (Kind/name), MESSAGE; ages as of `now` (epoch seconds).
std::string format_events_table(const std::vector<Json>& events, double now);

/// The events of TrainJob `name` in `name_space`, sorted (one LIST of the namespace's events,
/// its Jobs and Services); throws JobNotFound when it has neither Jobs nor a Service.
std::vector<Json> fetch_job_events(KubeClient* client, const std::string& name_space,
                                   const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_JOB_EVENTS_H_
