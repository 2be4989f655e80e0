// What a pod's status says, as status, logs and --wait read it: its phase, its exit code and
// why it is stuck or failed; and the conditions of any object's status.
#ifndef TRAINJOB_STATUS_POD_STATE_H_
#define TRAINJOB_STATUS_POD_STATE_H_

#include <optional>
#include <string>
#include <vector>

#include "load/json.h"
#include "status/job_phase.h"

namespace trainjob {

/// Whether `object`'s status.conditions has `type` with status True.
bool status_condition_true(const Json& object, const char* type);
/// The condition of `type` in `object`'s status.conditions (whatever its status), or null.
const Json* status_condition(const Json& object, const char* type);

/// The exit code of the first container that ended (its current state, else its last one).
std::optional<int> last_exit_code(const Json& pod);

/// The pod's status.phase: Pending while the server has set none, Unknown for a value that is
/// no Kubernetes pod phase.
JobPhase pod_phase_of(const Json& pod);
/// Why a pod is stuck or failed: Unschedulable (with the scheduler's message), image pull
/// errors, CrashLoopBackOff with the last exit, OOMKilled, exit codes, mount failures (from
/// `events`); empty when nothing is wrong.
std::string pod_reason(const Json& pod, const std::vector<Json>& events);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_POD_STATE_H_
