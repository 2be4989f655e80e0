// Where a Job or pod sits among the objects of a submitted job, read from the JobSet labels
// of a TrainJob's objects or the Training Operator labels (model/vocabulary.h) of a
// PyTorchJob's, TFJob's, ...: what `status`, `logs`, `submit --wait` and `run --local` use.
#ifndef TRAINJOB_MODEL_STEP_PLACE_H_
#define TRAINJOB_MODEL_STEP_PLACE_H_

#include <string>

#include "load/json.h"
#include "model/vocabulary.h"

namespace trainjob {

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

/// The object's metadata.annotations[key]; "" when absent or not a string.
std::string annotation_of(const Json& object, const char* key);

/// From `labels` (an object's metadata.labels): the JobSet labels when present, else the
/// Training Operator's.
StepPlace step_place(const Json& labels);
/// The same, from an object (a Job, a pod, a Service).
StepPlace step_place_of(const Json& object);

/// The index a label or annotation value holds (a completion or replica index); 0 when it is
/// empty or not a number.
int label_index(const std::string& value);
/// How `logs` and `run --local` name a pod: `node-0`, `node-1-2` (the second Job of the
/// step, completion index 2) for a TrainJob; `master-0`, `worker-1` for a legacy kind.
std::string node_label(const StepPlace& place, int64_t completion_index);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_STEP_PLACE_H_
