// The pure halves of the verbs pointed at one job: logs' --step, -c and CrashLoopBackOff
// reading, wait's --for, events' filter, order and table, and "not found" naming another
// namespace.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "cluster/wait_condition.h"
#include "status/job_events.h"
#include "status/job_not_found.h"
#include "status/logs/log_selection.h"

using namespace trainjob;

namespace {

Json job(const std::string& name, const std::string& step, std::vector<std::string> containers) {
  Json list = Json::array();
  for (const std::string& container : containers)
    list.push_back({{"name", container}});
  return {
      {"metadata", {{"name", name}, {"labels", {{"jobset.sigs.k8s.io/replicatedjob-name", step}}}}},
      {"spec", {{"template", {{"spec", {{"containers", list}}}}}}}};
}

Json event(const std::string& kind, const std::string& name, const std::string& last,
           const std::string& reason = "Created") {
  return {{"involvedObject", {{"kind", kind}, {"name", name}}},
          {"reason", reason},
          {"type", "Normal"},
          {"message", " made it \n"},
          {"lastTimestamp", last},
          {"firstTimestamp", last},
          {"count", 1}};
}

}  // namespace

TEST_CASE("logs --step: exact, else the one step alike ignoring case, else the steps listed") {
  std::vector<std::string> steps = {"master", "worker"};
  std::string error;
  CHECK(resolve_step("worker", steps, &error) == "worker");
  CHECK(resolve_step("Worker", steps, &error) == "worker");
  CHECK(error.empty());
  CHECK(resolve_step("launcher", steps, &error).empty());
  CHECK(error == "no step \"launcher\"; its steps are master, worker");
  CHECK(resolve_step("Node", {"NODE", "node"}, &error).empty());
  CHECK(error == "step \"Node\" could be any of NODE, node: give it as spelled");
}

TEST_CASE("logs -c: valid when a selected Job's template has it, else the containers named") {
  Json a = job("tj-node-0", "node", {"node", "sidecar"});
  Json b = job("tj-init-0", "dataset-initializer", {"dataset-initializer"});
  CHECK(check_container("sidecar", {&a, &b}).empty());
  CHECK(check_container("nosuch", {&a}) ==
        "container nosuch is not valid for the pods of job.batch/tj-node-0: their containers are "
        "node, sidecar");
  CHECK(check_container("nosuch", {&a, &b}) ==
        "container nosuch is not valid for the pods of these Jobs: their containers are "
        "dataset-initializer, node, sidecar");
  Json spec = {{"initContainers", {{{"name", "fetch"}}}}, {"containers", {{{"name", "node"}}}}};
  CHECK(container_names(spec) == std::vector<std::string>{"fetch", "node"});
}

TEST_CASE("logs: a container waiting in CrashLoopBackOff, found among init containers too") {
  Json pod = {{"status",
               {{"initContainerStatuses", {{{"name", "fetch"}}}},
                {"containerStatuses",
                 {{{"name", "node"},
                   {"restartCount", 3},
                   {"state", {{"waiting", {{"reason", "CrashLoopBackOff"}}}}},
                   {"lastState", {{"terminated", {{"exitCode", 1}}}}}}}}}}};
  REQUIRE(container_status(pod, "fetch") != nullptr);
  const Json* node = container_status(pod, "node");
  CHECK(crash_looping(node));
  CHECK_FALSE(never_started(node));  // its last run has a log
  CHECK_FALSE(crash_looping(container_status(pod, "fetch")));
  CHECK(container_status(pod, "other") == nullptr);
}

TEST_CASE("wait --for: kubectl wait's forms; anything else is refused, saying what is taken") {
  std::string error;
  auto complete = parse_wait_for("condition=Complete", &error);
  REQUIRE(complete);
  CHECK(complete->type == "Complete");
  CHECK(complete->status == "True");
  auto suspended = parse_wait_for("condition=Suspended=False", &error);
  REQUIRE(suspended);
  CHECK(suspended->status == "False");
  CHECK(parse_wait_for("delete", &error)->kind == WaitCondition::Kind::kDelete);
  auto path = parse_wait_for("jsonpath={.status.phase}=Running", &error);
  REQUIRE(path);
  CHECK(path->jsonpath == "{.status.phase}");
  CHECK(*path->value == "Running");
  auto relaxed = parse_wait_for("jsonpath=.status.startTime", &error);
  REQUIRE(relaxed);
  CHECK(relaxed->jsonpath == "{.status.startTime}");
  CHECK_FALSE(relaxed->value);
  for (const char* bad : {"bogus", "condition=", "jsonpath=", "jsonpath={.a}x"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_wait_for(bad, &error));
    CHECK(error.find("unrecognized condition") != std::string::npos);
  }
}

TEST_CASE("wait: met, not yet, or never, as status reads the phase") {
  std::string error;
  WaitCondition complete = *parse_wait_for("condition=complete", &error);  // any case
  TrainJobStatus status;
  status.name = "tj";
  status.phase = JobPhase::kRunning;
  Json running = {{"status", {{"phase", "Running"}, {"conditions", Json::array()}}}};
  CHECK(check_wait(complete, status, running) == WaitCheck::kNotYet);
  status.phase = JobPhase::kFailed;
  Json failed = {
      {"status",
       {{"phase", "Failed"}, {"conditions", {{{"type", "Failed"}, {"status", "True"}}}}}}};
  CHECK(check_wait(complete, status, failed) == WaitCheck::kNever);
  CHECK(check_wait(*parse_wait_for("condition=Failed", &error), status, failed) == WaitCheck::kMet);
  CHECK(check_wait(*parse_wait_for("jsonpath={.status.phase}=Failed", &error), status, failed) ==
        WaitCheck::kMet);
  CHECK(check_wait(*parse_wait_for("jsonpath={.status.phase}=Running", &error), status, failed) ==
        WaitCheck::kNotYet);
  CHECK(wait_object_name(status) == "trainjob.trainer.kubeflow.org/tj");
  CHECK(wait_resource_name(status) == "trainjobs/tj");
}

TEST_CASE("events: the job's Jobs', Service's and pods' (gone ones too), oldest first") {
  std::vector<Json> all = {
      event("Pod", "tj-node-0-0-abcde", "2026-01-01T00:00:03Z", "Scheduled"),
      event("Job", "tj-node-0", "2026-01-01T00:00:01Z", "SuccessfulCreate"),
      event("Pod", "tj-node-0-1-xyz12", "2026-01-01T00:00:02Z", "Killing"),  // replaced since
      event("Pod", "tj-node-0-x-node-0-0-abcde", "2026-01-01T00:00:00Z"),    // another job's
      event("Job", "other-node-0", "2026-01-01T00:00:00Z"),
      event("Service", "tj", "2026-01-01T00:00:04Z"),
      event("TrainJob", "tj", "2026-01-01T00:00:05Z"),
  };
  std::vector<Json> mine = events_of_job(all, "TrainJob", "tj", {"tj-node-0"}, {"tj"});
  REQUIRE(mine.size() == 5);
  CHECK(format_events_table(mine, 1767225600 + 65) ==
        "LAST SEEN   TYPE     REASON             OBJECT                  MESSAGE\n"
        "64s         Normal   SuccessfulCreate   Job/tj-node-0           made it\n"
        "63s         Normal   Killing            Pod/tj-node-0-1-xyz12   made it\n"
        "62s         Normal   Scheduled          Pod/tj-node-0-0-abcde   made it\n"
        "61s         Normal   Created            Service/tj              made it\n"
        "60s         Normal   Created            TrainJob/tj             made it\n");
}

TEST_CASE("events: a repeated event's LAST SEEN says how often over how long") {
  Json repeated = event("Pod", "tj-node-0-0-abcde", "2026-01-01T00:01:00Z", "BackOff");
  repeated["firstTimestamp"] = "2026-01-01T00:00:00Z";
  repeated["count"] = 4;
  CHECK(format_events_table({repeated}, 1767225600 + 70).find("10s (x4 over 70s)") !=
        std::string::npos);
}

TEST_CASE("not found: the TYPE the user gave, and where else the job is") {
  JobNotFound error("default", "tj", ": no Job carries its label");
  CHECK(std::string(error.what()) ==
        "trainjob \"tj\" not found in namespace \"default\": no Job carries its label");
  CHECK(job_not_found_message(error, nullptr, {}) == error.what());
  CHECK(job_not_found_message(error, find_managed_kind("PyTorchJob"), {"team-a", "team-b"}) ==
        "pytorchjob \"tj\" not found in namespace \"default\": no Job carries its label; found in "
        "team-a, team-b (use -n team-a)");
}
