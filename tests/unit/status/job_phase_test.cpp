// The phases of pods, Jobs and TrainJobs: one parser, one spelling.
#include "status/job_phase.h"

#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "status/pod_state.h"
#include "status/trainjob_status.h"

using namespace trainjob;

TEST_CASE("job phase: every phase's name parses back to it") {
  for (JobPhase phase :
       {JobPhase::kPending, JobPhase::kRunning, JobPhase::kSucceeded, JobPhase::kFailed,
        JobPhase::kUnknown, JobPhase::kComplete, JobPhase::kSuspended, JobPhase::kNotCreated}) {
    CAPTURE(phase);
    REQUIRE(parse_job_phase(job_phase_name(phase)));
    CHECK(*parse_job_phase(job_phase_name(phase)) == phase);
  }
}

TEST_CASE("job phase: the names are the ones printed") {
  CHECK(std::string(job_phase_name(JobPhase::kPending)) == "Pending");
  CHECK(std::string(job_phase_name(JobPhase::kRunning)) == "Running");
  CHECK(std::string(job_phase_name(JobPhase::kSucceeded)) == "Succeeded");
  CHECK(std::string(job_phase_name(JobPhase::kFailed)) == "Failed");
  CHECK(std::string(job_phase_name(JobPhase::kUnknown)) == "Unknown");
  CHECK(std::string(job_phase_name(JobPhase::kComplete)) == "Complete");
  CHECK(std::string(job_phase_name(JobPhase::kSuspended)) == "Suspended");
  CHECK(std::string(job_phase_name(JobPhase::kNotCreated)) == "NotCreated");
  std::ostringstream written;
  written << JobPhase::kNotCreated;
  CHECK(written.str() == "NotCreated");
}

TEST_CASE("job phase: other text is no phase (the match is exact)") {
  CHECK_FALSE(parse_job_phase(""));
  CHECK_FALSE(parse_job_phase("running"));
  CHECK_FALSE(parse_job_phase("Running "));
  CHECK_FALSE(parse_job_phase("Completed"));
  CHECK_FALSE(parse_job_phase("Ready"));
}

TEST_CASE("job phase: only Complete and Failed are finished") {
  CHECK(job_phase_finished(JobPhase::kComplete));
  CHECK(job_phase_finished(JobPhase::kFailed));
  CHECK_FALSE(job_phase_finished(JobPhase::kRunning));
  CHECK_FALSE(job_phase_finished(JobPhase::kSuspended));
  CHECK_FALSE(job_phase_finished(JobPhase::kSucceeded));
}

TEST_CASE("job phase: a pod's status.phase is parsed where it is read") {
  Json reported = {{"status", {{"phase", "Succeeded"}}}};
  CHECK(pod_phase_of(reported) == JobPhase::kSucceeded);
  reported["status"]["phase"] = "Running";
  CHECK(pod_phase_of(reported) == JobPhase::kRunning);
  // No phase yet: the pod has just been created.
  CHECK(pod_phase_of(Json{{"status", Json::object()}}) == JobPhase::kPending);
  CHECK(pod_phase_of(Json::object()) == JobPhase::kPending);
  // Not one of Kubernetes' pod phases.
  reported["status"]["phase"] = "Exploded";
  CHECK(pod_phase_of(reported) == JobPhase::kUnknown);
}
