// A trial of a sweep as the TrainJob document the compiler reads: the template with the
// trial's name, labels, assignment annotation and KUBEFLOW_TRAINER_OPT_* env, whose fields
// are found at the OptimizationJob's own lines (spec.trainJobTemplate...).
#ifndef TRAINJOB_OPTIMIZE_TRIAL_DOCUMENT_H_
#define TRAINJOB_OPTIMIZE_TRIAL_DOCUMENT_H_

#include <string>
#include <string_view>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/json.h"
#include "optimize/trial_generator.h"

namespace trainjob {

/// `<optimization job>-trial-<index>`.
std::string trial_name(const std::string& optimization_job, int64_t index);

/// The path in the OptimizationJob of a path in one of its trial TrainJobs: spec.* and
/// metadata.labels/annotations are the template's; the name, namespace, apiVersion and kind
/// are the OptimizationJob's.
std::string optimization_path(std::string_view trial_path);

/// The assignment as compact JSON, keys in parameter order: {"lr":"0.01","batch":"32"}.
std::string assignment_json(const Trial& trial);

/// The labels and the assignment annotation a trial's objects carry.
Json trial_labels(const std::string& optimization_job, const Trial& trial);

/// The trial TrainJob of `optimization_job` (a document that outlives the result).
Document trial_document(const Document& optimization_job, const Trial& trial);

/// Adds the trial's labels and annotations (assignment, objective, the seed of a random
/// search, the number of trials) to the metadata of `object` (an emitted Job, Service, ...),
/// keys kept sorted.
void mark_trial_object(const OptimizationJob& job, const Trial& trial, int64_t num_trials,
                       Json* object);

}  // namespace trainjob

#endif  // TRAINJOB_OPTIMIZE_TRIAL_DOCUMENT_H_
