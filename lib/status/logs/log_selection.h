// `logs`: what --step, -c and --all-containers select among a job's Jobs and pods, checked
// against the Jobs' pod templates before anything is read or waited for, so that a word
// that names nothing fails at once, naming what there is.
#ifndef TRAINJOB_STATUS_LOGS_LOG_SELECTION_H_
#define TRAINJOB_STATUS_LOGS_LOG_SELECTION_H_

#include <string>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// The steps of `jobs` (`node`, `dataset-initializer`; a legacy kind's `master`, `worker`),
/// sorted and unique.
std::vector<std::string> job_steps(const std::vector<Json>& jobs);

/// The step --step `asked` names among `steps`: itself, else the one step that is spelled
/// the same ignoring case (`Worker`, as a PyTorchJob's YAML spells the replica type, is
/// `worker`). "" with `*error` saying which steps there are when none or several match.
std::string resolve_step(const std::string& asked, const std::vector<std::string>& steps,
                         std::string* error);

/// The containers of a pod spec (a pod's or a Job template's): init containers first, as
/// kubectl logs --all-containers prints them.
std::vector<std::string> container_names(const Json& pod_spec);
/// Whether a pod spec has the container `name` (init containers count, as for kubectl logs).
bool has_container(const Json& pod_spec, const std::string& name);

/// -c `container` against the pod templates of `jobs`: "" when one of them has it, else why
/// not, naming the containers they have (kubectl: `container X is not valid for pod Y`).
std::string check_container(const std::string& container, const std::vector<const Json*>& jobs);

/// The status of container `name` of `pod` (containerStatuses or initContainerStatuses); null
/// when the kubelet has reported none.
const Json* container_status(const Json& pod, const std::string& name);

/// A container that never ran: no status yet, or waiting without a terminated instance
/// before (a container in CrashLoopBackOff has logs: those of its last run).
bool never_started(const Json* status);

/// Why a pod's container does not run: the pod's reason as `status` gives it (Unschedulable,
/// ImagePullBackOff), else the container's waiting reason (ContainerCreating), after the phase.
std::string waiting_text(const Json& pod, const Json* status);

/// Whether the container waits in CrashLoopBackOff: its current log may be empty or cut short,
/// and the run that crashed is what `logs -p` prints.
bool crash_looping(const Json* status);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_LOGS_LOG_SELECTION_H_
