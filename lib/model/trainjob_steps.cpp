#include "model/trainjob_steps.h"

namespace trainjob {

const TrainJobStep* find_trainjob_step(std::string_view ancestor) {
  for (const TrainJobStep& step : kTrainJobSteps) {
    if (ancestor == step.ancestor) return &step;
  }
  return nullptr;
}

bool is_initializer_step(std::string_view ancestor) {
  const TrainJobStep* step = find_trainjob_step(ancestor);
  return step != nullptr && step->initializer != nullptr;
}

bool is_step_container(std::string_view name) {
  for (const TrainJobStep& step : kTrainJobSteps) {
    if (name == step.container) return true;
  }
  return false;
}

}  // namespace trainjob
