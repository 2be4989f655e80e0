// The phase never moves back, retries show as restarting, pods stopped by a cleanPodPolicy
// are no failures, conditions and times, and submit --wait's progress deadline.
#include <doctest/doctest.h>

#include "cluster/stall_deadline.h"
#include "status/job_phase.h"
#include "status/status_output.h"
#include "status/trainjob_status.h"

using namespace trainjob;

namespace {

Json progress_job(const std::string& name, const std::string& condition = "") {
  Json out = Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
    "metadata": {"labels": {"jobset.sigs.k8s.io/replicatedjob-name": "node"}, "annotations": {}},
    "spec": {"parallelism": 1}, "status": {"active": 1, "startTime": "2026-01-01T00:00:05Z"}})");
  out["metadata"]["name"] = name;
  if (!condition.empty()) {
    out["status"]["conditions"] = Json::array({{{"type", condition},
                                                {"status", "True"},
                                                {"lastTransitionTime", "2026-01-01T00:09:00Z"}}});
    out["status"]["completionTime"] = "2026-01-01T00:09:00Z";
  }
  return out;
}

Json progress_pod(const std::string& name, const std::string& phase,
                  const std::string& created = "2026-01-01T00:00:10Z") {
  Json out = Json::parse(R"({"metadata": {"labels": {"jobset.sigs.k8s.io/replicatedjob-name":
    "node"}, "annotations": {"batch.kubernetes.io/job-completion-index": "0"}},
    "spec": {}, "status": {"containerStatuses": [{"name": "node", "restartCount": 0,
    "state": {"waiting": {"reason": "ContainerCreating"}}}]}})");
  out["metadata"]["name"] = name;
  out["metadata"]["creationTimestamp"] = created;
  out["status"]["phase"] = phase;
  if (phase == "Failed" || phase == "Succeeded")
    out["status"]["containerStatuses"][0]["state"] = {
        {"terminated", {{"exitCode", phase == "Failed" ? 1 : 0}, {"reason", "Error"}}}};
  return out;
}

/// A PyTorchJob's Job, one replica each, as the legacy compiler labels it.
Json legacy_job(const std::string& type, int index, const std::string& condition = "") {
  Json out = progress_job("pt-" + type + "-" + std::to_string(index), condition);
  out["metadata"]["labels"] = {{"training.kubeflow.org/replica-type", type},
                               {"training.kubeflow.org/replica-index", std::to_string(index)}};
  out["metadata"]["annotations"]["kubectl-trainjob/source-kind"] = "PyTorchJob";
  out["metadata"]["annotations"]["kubectl-trainjob/success-policy"] =
      R"({"operator":"All","targetReplicatedJobs":["master"]})";
  return out;
}

}  // namespace

TEST_CASE("the phase shown never moves back from Running to Pending, nor from Failed") {
  CHECK(forward_phase(std::nullopt, JobPhase::kPending) == JobPhase::kPending);
  CHECK(forward_phase(JobPhase::kRunning, JobPhase::kPending) == JobPhase::kRunning);
  CHECK(forward_phase(JobPhase::kRunning, JobPhase::kComplete) == JobPhase::kComplete);
  CHECK(forward_phase(JobPhase::kSuspended, JobPhase::kPending) == JobPhase::kPending);
  // Failed is terminal (Trainer 2.4): Jobs resumed or retried afterwards change nothing.
  CHECK(forward_phase(JobPhase::kFailed, JobPhase::kRunning) == JobPhase::kFailed);
  CHECK(forward_phase(JobPhase::kFailed, JobPhase::kPending) == JobPhase::kFailed);
  CHECK(forward_phase(JobPhase::kFailed, JobPhase::kComplete) == JobPhase::kFailed);
  CHECK(job_phase_finished(JobPhase::kStopped));
}

TEST_CASE("a retried pod keeps the TrainJob Running, saying which pod restarts and why") {
  Json failed = progress_pod("t-node-0-0-aaaaa", "Failed");
  Json retry = progress_pod("t-node-0-0-zzzzz", "Pending");
  TrainJobStatus status = compute_status("t", {progress_job("t-node-0")}, {failed, retry}, {});
  CHECK(status.phase == JobPhase::kRunning);
  CHECK(status.restarting == "pod t-node-0-0-aaaaa: Error (exit code 1)");
  CHECK(phase_text(status) == "Running (restarting pod t-node-0-0-aaaaa: Error (exit code 1))");
  REQUIRE(status.nodes.size() == 1);
  CHECK(status.nodes[0].pod == "t-node-0-0-zzzzz");  // created in the same second: still active

  // Every pod ended, the Job does not say Complete yet: still Running, not Pending.
  status = compute_status("t", {progress_job("t-node-0")}, {progress_pod("p", "Succeeded")}, {});
  CHECK(status.phase == JobPhase::kRunning);
  CHECK(status.restarting.empty());
  CHECK(status.nodes[0].exit_code == 0);
}

TEST_CASE("status conditions and times are shaped like a TrainJob's") {
  TrainJobStatus done = compute_status("t", {progress_job("t-node-0", "Complete")}, {}, {});
  CHECK(done.start_time == "2026-01-01T00:00:05Z");
  CHECK(done.completion_time == "2026-01-01T00:09:00Z");
  Json json = status_json(done, "default");
  REQUIRE(json["status"]["conditions"].size() == 1);
  CHECK(json["status"]["conditions"][0]["type"] == "Complete");
  CHECK(json["status"]["conditions"][0]["status"] == "True");
  CHECK(json["status"]["conditions"][0]["reason"] == "AllJobsCompleted");
  CHECK(json["status"]["conditions"][0]["lastTransitionTime"] == "2026-01-01T00:09:00Z");
  CHECK(json["status"]["startTime"] == "2026-01-01T00:00:05Z");

  TrainJobStatus running = compute_status("t", {progress_job("t-node-0")}, {}, {});
  CHECK(status_json(running, "default")["status"]["conditions"] == Json::array());
  CHECK(running.completion_time.empty());
}

TEST_CASE("Jobs stopped by cleanPodPolicy show their nodes as stopped, not failed") {
  Json master = legacy_job("master", 0, "Complete");
  Json worker = legacy_job("worker", 0);
  worker["metadata"]["annotations"]["kubectl-trainjob/stopped-by-clean-pod-policy"] = "Running";
  CHECK(job_state(worker) == JobPhase::kStopped);
  Json terminating = progress_pod("pt-worker-0-abcde", "Failed");
  terminating["metadata"]["labels"] = worker["metadata"]["labels"];
  Json master_pod = progress_pod("pt-master-0-abcde", "Succeeded");
  master_pod["metadata"]["labels"] = master["metadata"]["labels"];
  TrainJobStatus status = compute_status("pt", {master, worker}, {master_pod, terminating}, {});
  CHECK(status.phase == JobPhase::kComplete);
  REQUIRE(status.nodes.size() == 2);
  CHECK(status.nodes[0].label == "master-0");
  CHECK(status.nodes[0].phase == JobPhase::kSucceeded);
  CHECK(status.nodes[1].phase == JobPhase::kStopped);  // not Failed (exit code 1)
  CHECK(status.nodes[1].reason == "stopped by cleanPodPolicy Running");

  TrainJobStatus gone = compute_status("pt", {master, worker}, {}, {});
  REQUIRE(gone.nodes.size() == 1);  // the worker's pod is gone: a row from its Job
  CHECK(gone.nodes[0].label == "worker-0");
  CHECK(gone.nodes[0].pod.empty());
  CHECK(format_status_table(gone).find("Stopped") != std::string::npos);
}

TEST_CASE("the progress deadline: a pod Pending with no change for that long is stalled") {
  NodeStatus pending;
  pending.pod = "p0";
  pending.label = "node-0";
  pending.reason = "Unschedulable: 0/3 nodes are available";
  NodeStatus running = pending;
  running.pod = "p1";
  running.phase = JobPhase::kRunning;
  running.reason.clear();
  StallWatch progress;
  CHECK(progress.stalled({pending, running}, 0, 600).empty());
  CHECK(progress.stalled({pending, running}, 599, 600).empty());
  std::vector<NodeStatus> stuck = progress.stalled({pending, running}, 600, 600);
  REQUIRE(stuck.size() == 1);  // the running pod may run as long as it likes
  CHECK(describe_stalled(stuck) ==
        "pod p0 (node-0) Pending: Unschedulable: 0/3 nodes are available");
  pending.reason = "ErrImagePull";  // a change is progress: the clock starts again
  CHECK(progress.stalled({pending}, 700, 600).empty());
  CHECK(progress.stalled({pending}, 1299, 600).empty());
  CHECK(progress.stalled({pending}, 1300, 600).size() == 1);
  CHECK(progress.stalled({pending}, 5000, 0).empty());  // 0: no deadline
}

TEST_CASE("status names progress lines that are not JSON, with or without a progress read") {
  TrainJobStatus status;
  status.kind = "TrainJob";
  status.name = "demo";
  CHECK(format_status_table(status).find("Progress:") == std::string::npos);
  status.bad_progress.add("{'loss': 0.1}");
  CHECK(format_status_table(status).find(
            "Progress: none read; 1 TRAINJOB_PROGRESS line was not JSON: {'loss': 0.1} (") !=
        std::string::npos);
  status.progress = parse_progress_line(R"(TRAINJOB_PROGRESS {"epoch": 1, "epochs": 2})");
  CHECK(format_status_table(status).find("Progress: epoch 1/2 (50%); 1 TRAINJOB_PROGRESS line") !=
        std::string::npos);
}
