#include "render/compile_state.h"

#include "model/vocabulary.h"

namespace trainjob {

ReplicatedJob* CompileState::trainer_job() {
  return find_ancestor(kTrainerStep);
}

ReplicatedJob* CompileState::find_job(std::string_view name) {
  for (ReplicatedJob& candidate : replicated_jobs) {
    if (candidate.name == name) return &candidate;
  }
  return nullptr;
}

ReplicatedJob* CompileState::find_ancestor(std::string_view ancestor) {
  for (ReplicatedJob& candidate : replicated_jobs) {
    if (candidate.ancestor == ancestor) return &candidate;
  }
  return nullptr;
}

}  // namespace trainjob
