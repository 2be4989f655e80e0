// The labels the Training Operator v1 (and mpi-operator) put on the pods and Services of a
// PyTorchJob, TFJob, ...: render writes them on the Jobs it compiles from those kinds, and
// the client side (`status`, `logs`, `run --local`) reads a pod's place from them.
#ifndef TRAINJOB_RENDER_OPERATOR_LABELS_H_
#define TRAINJOB_RENDER_OPERATOR_LABELS_H_

#include <string>

#include "load/json.h"

namespace trainjob {

inline constexpr const char* kOperatorNameLabel = "training.kubeflow.org/operator-name";
inline constexpr const char* kOperatorJobNameLabel = "training.kubeflow.org/job-name";
inline constexpr const char* kReplicaTypeLabel = "training.kubeflow.org/replica-type";
inline constexpr const char* kReplicaIndexLabel = "training.kubeflow.org/replica-index";
inline constexpr const char* kJobRoleLabel = "training.kubeflow.org/job-role";

/// Where a Job or pod sits among the objects of one submitted job.
struct StepPlace {
  /// A TrainJob's replicated job (`node`, `dataset-initializer`), or a legacy kind's replica
  /// type in lower case (`master`, `worker`; mpi-operator: the job role, `launcher`).
  std::string step;
  /// The JobSet job-index of a TrainJob's Job; for a legacy kind, the replica index (each
  /// of its Jobs runs one pod). Empty when the object says none.
  std::string job_index;
  bool legacy = false;  ///< read from the Training Operator labels
};

/// From `labels` (an object's metadata.labels): the JobSet labels when present, else the
/// Training Operator's.
StepPlace step_place(const Json& labels);
/// The same, from an object (a Job, a pod, a Service).
StepPlace step_place_of(const Json& object);

/// How `logs` and `run --local` name a pod: `node-0`, `node-1-2` (the second Job of the
/// step, completion index 2) for a TrainJob; `master-0`, `worker-1` for a legacy kind.
std::string node_label(const StepPlace& place, int64_t completion_index);

/// The container a legacy kind's operator treats as the default one (`pytorch` for the
/// operator-name `pytorchjob-controller`); empty for others.
std::string default_container_of_operator(const std::string& operator_name);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_OPERATOR_LABELS_H_
