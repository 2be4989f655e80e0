#include "cluster/job_phase.h"

#include <ostream>

namespace trainjob {
namespace {

constexpr JobPhase kAllPhases[] = {
    JobPhase::kPending, JobPhase::kRunning,  JobPhase::kSucceeded, JobPhase::kFailed,
    JobPhase::kUnknown, JobPhase::kComplete, JobPhase::kSuspended, JobPhase::kNotCreated,
};

}  // namespace

std::optional<JobPhase> parse_job_phase(std::string_view text) {
  for (JobPhase phase : kAllPhases) {
    if (text == job_phase_name(phase)) return phase;
  }
  return std::nullopt;
}

const char* job_phase_name(JobPhase phase) {
  switch (phase) {
    case JobPhase::kPending:
      return "Pending";
    case JobPhase::kRunning:
      return "Running";
    case JobPhase::kSucceeded:
      return "Succeeded";
    case JobPhase::kFailed:
      return "Failed";
    case JobPhase::kUnknown:
      return "Unknown";
    case JobPhase::kComplete:
      return "Complete";
    case JobPhase::kSuspended:
      return "Suspended";
    case JobPhase::kNotCreated:
      return "NotCreated";
  }
  return "Unknown";
}

bool job_phase_finished(JobPhase phase) {
  return phase == JobPhase::kComplete || phase == JobPhase::kFailed;
}

std::ostream& operator<<(std::ostream& out, JobPhase phase) {
  return out << job_phase_name(phase);
}

}  // namespace trainjob
