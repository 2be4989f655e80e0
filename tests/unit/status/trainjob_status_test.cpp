// Status computed from Jobs and pods: phase, reasons, newest pod per node.
#include "status/trainjob_status.h"

#include <doctest/doctest.h>

#include "status/pod_state.h"

using namespace trainjob;

namespace {

Json status_job(const std::string& name, const std::string& step, const std::string& condition = "",
                bool suspend = false, int ready = 0) {
  Json out = Json::parse(
      R"({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"labels": {}}, "spec": {"parallelism": 2}, "status": {}})");
  out["metadata"]["name"] = name;
  out["metadata"]["labels"]["jobset.sigs.k8s.io/replicatedjob-name"] = step;
  out["spec"]["suspend"] = suspend;
  out["status"]["active"] = 2;
  out["status"]["ready"] = ready;
  if (!condition.empty())
    out["status"]["conditions"] =
        Json::array({{{"type", condition},
                      {"status", "True"},
                      {"reason", "BackoffLimitExceeded"},
                      {"message", "Job has reached the specified backoff limit"}}});
  return out;
}

Json pod(const std::string& name, const std::string& step, int index, const std::string& phase,
         const std::string& created = "2026-01-01T00:00:00Z") {
  Json out = Json::parse(
      R"({"metadata": {"labels": {}, "annotations": {}}, "spec": {"nodeName": "n1"}, "status": {"containerStatuses": [{"name": "node", "restartCount": 0, "state": {"running": {}}}]}})");
  out["metadata"]["name"] = name;
  out["metadata"]["creationTimestamp"] = created;
  out["metadata"]["labels"]["jobset.sigs.k8s.io/replicatedjob-name"] = step;
  out["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"] =
      std::to_string(index);
  out["status"]["phase"] = phase;
  return out;
}

}  // namespace

TEST_CASE("phase: Pending, Running, Complete, Failed, Suspended from conditions and pods") {
  CHECK(compute_status("t", {status_job("t-node-0", "node")}, {pod("p0", "node", 0, "Pending")}, {})
            .phase == JobPhase::kPending);
  CHECK(compute_status("t", {status_job("t-node-0", "node")}, {pod("p0", "node", 0, "Running")}, {})
            .phase == JobPhase::kRunning);
  CHECK(compute_status("t", {status_job("t-node-0", "node", "Complete")}, {}, {}).phase ==
        JobPhase::kComplete);
  CHECK(compute_status("t", {status_job("t-node-0", "node", "", true)}, {}, {}).phase ==
        JobPhase::kSuspended);
  TrainJobStatus failed = compute_status(
      "t",
      {status_job("t-init-0", "dataset-initializer", "Failed"), status_job("t-node-0", "node")}, {},
      {});
  CHECK(failed.phase == JobPhase::kFailed);
  CHECK(failed.message ==
        "Job t-init-0 failed: BackoffLimitExceeded: Job has reached the specified backoff limit");
  CHECK(failed.steps.size() == 2);
}

TEST_CASE("a condition that is not True does not count (a resumed job is not Suspended)") {
  Json resumed = status_job("t-node-0", "node");
  resumed["status"]["conditions"] = Json::array(
      {{{"type", "Suspended"}, {"status", "False"}}, {{"type", "Failed"}, {"status", "False"}}});
  CHECK(job_state(resumed) == JobPhase::kPending);
}

TEST_CASE("a Job whose pods succeeded runs until it is Complete, never back to Pending") {
  Json finishing = status_job("t-node-0", "node");
  finishing["status"] = Json::parse(R"({"active": 0, "ready": 0, "succeeded": 2, "conditions":
    [{"type": "SuccessCriteriaMet", "status": "True", "reason": "CompletionsReached"}]})");
  CHECK(job_state(finishing) == JobPhase::kRunning);
  finishing["status"]["succeeded"] = 0;
  CHECK(job_state(finishing) == JobPhase::kPending);
}

TEST_CASE("the newest pod stands for its node") {
  TrainJobStatus status = compute_status(
      "t", {status_job("t-node-0", "node")},
      {pod("old", "node", 1, "Failed", "2026-01-01T00:00:00Z"),
       pod("new", "node", 1, "Running", "2026-01-01T00:01:00Z"), pod("p0", "node", 0, "Running")},
      {});
  REQUIRE(status.nodes.size() == 2);
  CHECK(status.nodes[1].label == "node-1");
  CHECK(status.nodes[1].pod == "new");
  CHECK(status.nodes[0].node_name == "n1");
}

TEST_CASE("of two pods created in one second, the retry stands for its node, finished or not") {
  // Names sort the failed pod last, so only its phase can make the retry win.
  for (const char* retry_phase : {"Running", "Succeeded"}) {
    CAPTURE(retry_phase);
    TrainJobStatus status =
        compute_status("t", {status_job("t-node-0", "node")},
                       {pod("t-node-0-0-zzzzz", "node", 0, "Failed", "2026-01-01T00:00:00Z"),
                        pod("t-node-0-0-aaaaa", "node", 0, retry_phase, "2026-01-01T00:00:00Z")},
                       {});
    REQUIRE(status.nodes.size() == 1);
    CHECK(status.nodes[0].pod == "t-node-0-0-aaaaa");
  }
}

TEST_CASE("pod reasons: scheduling, image pulls, crash loops, OOM, exit codes, mounts") {
  Json p = pod("p", "node", 0, "Pending");
  p["status"]["conditions"] = Json::array({{{"type", "PodScheduled"},
                                            {"status", "False"},
                                            {"reason", "Unschedulable"},
                                            {"message", "0/3 nodes are available"}}});
  CHECK(pod_reason(p, {}) == "Unschedulable: 0/3 nodes are available");

  Json pull = pod("p", "node", 0, "Pending");
  pull["status"]["containerStatuses"][0]["state"] = {
      {"waiting", {{"reason", "ImagePullBackOff"}, {"message", "Back-off pulling image"}}}};
  CHECK(pod_reason(pull, {}) == "ImagePullBackOff: Back-off pulling image");

  Json crash = pod("p", "node", 0, "Running");
  crash["status"]["containerStatuses"][0]["state"] = {
      {"waiting", {{"reason", "CrashLoopBackOff"}}}};
  crash["status"]["containerStatuses"][0]["lastState"] = {
      {"terminated", {{"reason", "OOMKilled"}, {"exitCode", 137}}}};
  CHECK(pod_reason(crash, {}) == "CrashLoopBackOff; last exit: OOMKilled (exit code 137)");

  Json exited = pod("p", "node", 0, "Failed");
  exited["status"]["containerStatuses"][0]["state"] = {
      {"terminated", {{"reason", "Error"}, {"exitCode", 3}}}};
  CHECK(pod_reason(exited, {}) == "Error (exit code 3)");

  Json mounting = pod("p", "node", 0, "Pending");
  mounting["status"]["containerStatuses"][0]["state"] = {
      {"waiting", {{"reason", "ContainerCreating"}}}};
  Json event = {{"reason", "FailedMount"},
                {"message", "configmap \"x\" not found"},
                {"involvedObject", {{"kind", "Pod"}, {"name", "p"}}}};
  CHECK(pod_reason(mounting, {event}) == "FailedMount: configmap \"x\" not found");
  CHECK(pod_reason(pod("q", "node", 0, "Running"), {event}).empty());
}
