// The Flux policy's checks, and the settings it reads from the trainer's env.
#ifndef TRAINJOB_RENDER_POLICY_FLUX_SETTINGS_H_
#define TRAINJOB_RENDER_POLICY_FLUX_SETTINGS_H_

#include "render/compile_state.h"
#include "render/policy/flux_scripts.h"
#include "render/steps/trainer.h"

namespace trainjob {

inline constexpr const char* kFluxInstallerName = "flux-installer";

/// FLUX_VIEW_IMAGE, FLUX_NETWORK_DEVICE and FLUX_QUEUE_POLICY as upstream reads them:
/// upstream's defaults, replaced by the value of the runtime's `node` container env
/// (`runtime_node`, entries with a literal value only), replaced by spec.trainer.env (an
/// entry without a value sets an empty setting). Checks each value it takes and reports a
/// bad one where it was set; false after such an error.
bool read_flux_settings(const CompileState& state, const Json& runtime_node,
                        FluxSettings* settings);

/// What validate and render check for a Flux TrainJob: a `node` job with a `node`
/// container, no init container already named flux-installer, and the settings (an integer
/// numProcPerNode is read_trainer's check). Runs before spec.trainer is applied.
bool check_flux(const CompileState& state);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_FLUX_SETTINGS_H_
