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

}  // namespace trainjob
