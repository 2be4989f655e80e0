// spec.trainer: its checks, and how it rewrites the trainer job's `node` container.
#ifndef TRAINJOB_RENDER_STEPS_TRAINER_H_
#define TRAINJOB_RENDER_STEPS_TRAINER_H_

#include <optional>

#include "render/compile_state.h"

namespace trainjob {

/// spec.trainer after its fields were checked.
struct TrainerSettings {
  bool present = false;
  std::optional<int64_t> num_nodes;
  Json num_proc_per_node;  ///< null, an integer, or "auto" / "cpu" / "gpu"
  Json resources;          ///< resourcesPerNode, or null
};

/// Checks the fields of spec.trainer. False on any error.
bool read_trainer(const CompileState& state, TrainerSettings* settings);
/// Image, command, args, resources and env of the trainer job's `node` container.
void apply_trainer(CompileState* state, const TrainerSettings& settings);
/// spec.trainer's resourcesPerNode and env on one `node` container (upstream gives them
/// to the trainer job, and MPI's runLauncherAsNode to job `node` as well).
void apply_trainer_env_and_resources(const CompileState& state, const TrainerSettings& settings,
                                     Json* container);
/// Puts resourcesPerNode on the `node` container as the dialect does: v2.3 merges it into
/// the runtime's requests and limits, earlier releases replace them.
void set_trainer_resources(const CompileState& state, const Json& resources, Json* container);
/// Checks a list of EnvVar and returns whether it is well formed.
bool check_env_list(const FieldReader& reader, const Field& list);
/// Checks requests/limits quantities of a ResourceRequirements.
bool check_resources(const FieldReader& reader, const Field& resources);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_TRAINER_H_
