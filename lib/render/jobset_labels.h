// The labels and annotations the JobSet controller puts on each child Job and its pods.
#ifndef TRAINJOB_RENDER_JOBSET_LABELS_H_
#define TRAINJOB_RENDER_JOBSET_LABELS_H_

#include <cstdint>
#include <string>

#include "load/json.h"
#include "render/client_annotations.h"

namespace trainjob {

inline constexpr const char* kJobSetNameLabel = "jobset.sigs.k8s.io/jobset-name";
inline constexpr const char* kTrainJobNameLabel = "trainer.kubeflow.org/trainjob-name";
inline constexpr const char* kReplicatedJobNameLabel = "jobset.sigs.k8s.io/replicatedjob-name";
inline constexpr const char* kJobIndexKey = "jobset.sigs.k8s.io/job-index";
inline constexpr const char* kReplicatedJobReplicasKey =
    "jobset.sigs.k8s.io/replicatedjob-replicas";
inline constexpr const char* kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr const char* kManagedByValue = "kubectl-trainjob";
inline constexpr const char* kAncestorLabel = "trainer.kubeflow.org/trainjob-ancestor-step";
inline constexpr const char* kCompletionIndexAnnotation =
    "batch.kubernetes.io/job-completion-index";
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

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_JOBSET_LABELS_H_
