// The phases the cluster commands read and show, as one enum: a pod's status.phase as the
// API server reports it, parsed once where it is read, and the state the plugin derives for a
// Job, a step and the TrainJob, printed by name.
#ifndef TRAINJOB_STATUS_JOB_PHASE_H_
#define TRAINJOB_STATUS_JOB_PHASE_H_

#include <iosfwd>
#include <optional>
#include <string_view>

namespace trainjob {

enum class JobPhase {
  // A pod's status.phase (Kubernetes' PodPhase); kPending, kRunning and kFailed are also
  // what the plugin says of a Job, a step and a TrainJob.
  kPending,
  kRunning,
  kSucceeded,
  kFailed,
  kUnknown,
  // Only derived: a Job by its conditions and spec.suspend, a step and the TrainJob from them.
  kComplete,
  kSuspended,
  kNotCreated,  ///< a step the success policy waits for whose Jobs do not exist yet
  /// A node or Job `submit --wait` stopped after its TrainJob finished, as a legacy kind's
  /// cleanPodPolicy Running or All asks: not a failure.
  kStopped,
};

/// The phase named `text` exactly as job_phase_name spells it; nullopt for any other text.
std::optional<JobPhase> parse_job_phase(std::string_view text);

/// The name printed for `phase` (Pending, Running, Succeeded, Failed, Unknown, Complete,
/// Suspended, NotCreated): the API's own spelling, so output reads as kubectl's.
const char* job_phase_name(JobPhase phase);

/// Complete, Failed or Stopped: a Job or TrainJob that will not run again.
bool job_phase_finished(JobPhase phase);

/// The phase to show after `last` was shown: a job never moves back from Running to Pending
/// (a retried pod is Pending again, and so are the moments between a pod's end and its Job's
/// Complete), so Pending after Running stays Running; and Failed stays Failed.
JobPhase forward_phase(std::optional<JobPhase> last, JobPhase now);

/// Writes job_phase_name (for test failure messages).
std::ostream& operator<<(std::ostream& out, JobPhase phase);

/// The batch/v1 Job condition types a Job's state is read from.
inline constexpr const char* kJobCompleteCondition = "Complete";
inline constexpr const char* kJobFailedCondition = "Failed";

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_JOB_PHASE_H_
