// The labels and annotations the JobSet controller puts on each child Job and its pods
// (their keys are in model/vocabulary.h), and the pods' addresses that follow from its names.
#ifndef TRAINJOB_MODEL_JOBSET_LABELS_H_
#define TRAINJOB_MODEL_JOBSET_LABELS_H_

#include <cstdint>
#include <string>

#include "load/json.h"
#include "model/vocabulary.h"

namespace trainjob {

/// Where one Job sits in its JobSet.
struct JobPlacement {
  std::string trainjob;
  std::string name_space;  ///< empty when unknown: the job-key label is then left out
  std::string replicated_job;
  std::string job_name;
  int64_t replicated_job_replicas = 1;
  int64_t global_replicas = 1;
  int64_t job_index = 0;
  int64_t job_global_index = 0;
  std::string group = "default";
  int64_t group_replicas = 1;
  int64_t job_group_index = 0;
};

/// The `jobset.sigs.k8s.io/*` keys (used as labels and as annotations).
Json jobset_keys(const JobPlacement& placement);
/// The labels every object we emit for a TrainJob carries, so status/logs/delete find them.
Json ownership_labels(const std::string& trainjob);

/// The hostname of the first pod (completion index 0) of the first Job of `replicated_job`:
/// `<trainjob>-<replicated_job>-0-0`, as JobSet names the Jobs `<jobset>-<rj>-<index>` and an
/// Indexed Job's pods take `<job>-<index>` as hostname.
std::string first_pod_hostname(const std::string& trainjob, const std::string& replicated_job);
/// The address of the first pod of the trainer's job, `<trainjob>-node-0-0.<trainjob>`, that
/// the ML policies name as the coordinator (torch's master, JAX's coordinator, XGBoost's
/// tracker): upstream writes it with the TrainJob's name as the subdomain.
std::string first_node_host(const std::string& trainjob);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_JOBSET_LABELS_H_
