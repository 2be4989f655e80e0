// The steps of a TrainJob: the `trainjob-ancestor-step` values a runtime labels its
// replicated jobs with (the trainer and the two initializers), each with the container it
// runs in. One table, read by the compiler's checks, the initializers and `run --local`.
#ifndef TRAINJOB_MODEL_TRAINJOB_STEPS_H_
#define TRAINJOB_MODEL_TRAINJOB_STEPS_H_

#include <string_view>

#include "model/vocabulary.h"

namespace trainjob {

struct TrainJobStep {
  const char* ancestor;     ///< the trainjob-ancestor-step value
  const char* container;    ///< the container the step's pod template must have
  const char* initializer;  ///< its field under spec.initializer; null for the trainer
};

/// The trainer first, then the initializers in the order the TrainJob configures them.
inline constexpr TrainJobStep kTrainJobSteps[] = {
    {kTrainerStep, kNodeName, nullptr},
    {kDatasetInitializerName, kDatasetInitializerName, "dataset"},
    {kModelInitializerName, kModelInitializerName, "model"},
};

/// The step labelled `ancestor`, or null for a value that names none.
const TrainJobStep* find_trainjob_step(std::string_view ancestor);
/// True for the initializers' steps (dataset-initializer, model-initializer).
bool is_initializer_step(std::string_view ancestor);
/// True for a container some step runs in (node and the initializers'): only the Trainer
/// sets their env.
bool is_step_container(std::string_view name);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_TRAINJOB_STEPS_H_
