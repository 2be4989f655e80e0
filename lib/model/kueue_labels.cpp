#include "model/kueue_labels.h"

#include "model/vocabulary.h"

namespace trainjob {

Json kueue_job_labels(const Json& object) {
  Json out = Json::object();
  const Json& labels = json_member(json_member(object, "metadata"), "labels");
  if (!labels.is_object()) return out;
  for (const char* key : {kKueueQueueLabel, kKueuePriorityLabel}) {
    auto it = labels.find(key);
    if (it != labels.end() && it->is_string()) out[key] = *it;
  }
  return out;
}

std::string no_kueue_queue_phrase() {
  return "no Kueue queue (metadata.labels." + std::string(kKueueQueueLabel) + ")";
}

void warn_jobs_suspended_without_queue(const FieldReader& reader, const std::string& suspend_path,
                                       bool suspended, const std::string& name) {
  if (!suspended || kueue_job_labels(reader.document().value).contains(kKueueQueueLabel)) return;
  reader.warning(suspend_path, "the Jobs are created suspended and " + no_kueue_queue_phrase() +
                                   " will admit them: they wait until `kubectl trainjob resume " +
                                   name + "`");
}

void refuse_queued_jobs_admitted_apart(const FieldReader& reader, int64_t jobs,
                                       const std::string& which, const std::string& fix) {
  Json labels = kueue_job_labels(reader.document().value);
  if (jobs < 2 || !labels.contains(kKueueQueueLabel)) return;
  reader.error(reader.root()["metadata"]["labels"][kKueueQueueLabel].path(),
               "expected a job that runs as one Job in a Kueue queue, found " +
                   std::to_string(jobs) + " Jobs that run together (" + which +
                   "): Kueue admits each Job as a Workload of its own, so two such jobs under a "
                   "quota that fits one can each be half admitted and wait for the rest "
                   "forever; " +
                   fix);
}

}  // namespace trainjob
