// Kueue's batch/Job integration, as every compiled kind uses it: the queue labels a job
// carries are passed on to each Job it becomes (no object of the job's own kind exists for
// Kueue to admit), and a job suspended without them waits for a hand to resume it.
#ifndef TRAINJOB_MODEL_KUEUE_LABELS_H_
#define TRAINJOB_MODEL_KUEUE_LABELS_H_

#include <string>

#include "load/json.h"
#include "model/field.h"

namespace trainjob {

/// The Kueue labels (queue name, workload priority class) among `object`'s
/// metadata.labels, for every Job made from it; an empty object when it has none.
Json kueue_job_labels(const Json& object);

/// "no Kueue queue (metadata.labels.kueue.x-k8s.io/queue-name)", for the warnings below.
std::string no_kueue_queue_phrase();

/// Warns at `suspend_path` when the job `reader` reads is suspended (`suspended`) and
/// carries no queue label: its Jobs are created suspended and only `kubectl trainjob resume
/// <name>` starts them.
void warn_jobs_suspended_without_queue(const FieldReader& reader, const std::string& suspend_path,
                                       bool suspended, const std::string& name);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_KUEUE_LABELS_H_
