// Kueue's batch/Job integration, as every compiled kind uses it: the queue labels a job
// carries are passed on to each Job it becomes (no object of the job's own kind exists for
// Kueue to admit), and a job suspended without them waits for a hand to resume it.
#ifndef TRAINJOB_MODEL_KUEUE_LABELS_H_
#define TRAINJOB_MODEL_KUEUE_LABELS_H_

#include <cstdint>
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

/// Kueue's batch/Job integration admits each Job on its own, as a Workload of its own. A job
/// in a queue (the document `reader` reads) whose `jobs` Jobs (named by `which`) must all run
/// for it to progress is refused at its queue label: two such jobs under a quota that fits
/// one can each be half admitted and wait for the rest forever. `fix` says how to run it as
/// one Workload. Nothing is said for fewer than two Jobs or without a queue label.
void refuse_queued_jobs_admitted_apart(const FieldReader& reader, int64_t jobs,
                                       const std::string& which, const std::string& fix);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_KUEUE_LABELS_H_
