// Findings that do not stop a render but that a person should hear about before the
// objects reach a cluster: volumes that tie pods to things outside the inputs, and
// resources that would quietly downgrade the pods' QoS.
#ifndef TRAINJOB_RENDER_STEPS_ADVISORIES_H_
#define TRAINJOB_RENDER_STEPS_ADVISORIES_H_

#include <set>
#include <string>

#include "render/compile_state.h"
#include "render/steps/trainer.h"

namespace trainjob {

/// Warns about configMap volumes whose ConfigMap is not among `config_maps`
/// ("namespace/name"; null: not known, no warning), persistentVolumeClaim volumes whose
/// claim is not among `claims` (the same), hostPath volumes, and a resourcesPerNode that
/// replaces the node container's resources with no CPU or memory.
void warn_advisories(const CompileState& state, const TrainerSettings& trainer,
                     const std::set<std::string>* config_maps, const std::set<std::string>* claims);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_ADVISORIES_H_
