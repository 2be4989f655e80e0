#include "status/job_phase.h"

#include <ostream>

namespace trainjob {
namespace {

/// Each phase and how it is spelt, by the API server and in our output alike.
struct PhaseName {
  JobPhase phase;
  const char* name;
};

constexpr PhaseName kPhaseNames[] = {
    {JobPhase::kPending, "Pending"},     {JobPhase::kRunning, "Running"},
    {JobPhase::kSucceeded, "Succeeded"}, {JobPhase::kFailed, "Failed"},
    {JobPhase::kUnknown, "Unknown"},     {JobPhase::kComplete, "Complete"},
    {JobPhase::kSuspended, "Suspended"}, {JobPhase::kNotCreated, "NotCreated"},
    {JobPhase::kStopped, "Stopped"},
};

}  // namespace

std::optional<JobPhase> parse_job_phase(std::string_view text) {
  for (const PhaseName& entry : kPhaseNames) {
    if (text == entry.name) return entry.phase;
  }
  return std::nullopt;
}

const char* job_phase_name(JobPhase phase) {
  for (const PhaseName& entry : kPhaseNames) {
    if (entry.phase == phase) return entry.name;
  }
  return "Unknown";
}

bool job_phase_finished(JobPhase phase) {
  return phase == JobPhase::kComplete || phase == JobPhase::kFailed || phase == JobPhase::kStopped;
}

JobPhase forward_phase(std::optional<JobPhase> last, JobPhase now) {
  if (last == JobPhase::kRunning && now == JobPhase::kPending) return JobPhase::kRunning;
  // Failed is terminal (Trainer 2.4): a failed TrainJob whose Jobs are resumed, retried or
  // cleaned up afterwards is still the TrainJob that failed.
  if (last == JobPhase::kFailed) return JobPhase::kFailed;
  return now;
}

std::ostream& operator<<(std::ostream& out, JobPhase phase) {
  return out << job_phase_name(phase);
}

}  // namespace trainjob
