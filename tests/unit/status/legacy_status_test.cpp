// The cluster side of the legacy kinds (PyTorchJob, TFJob, ...): their Jobs carry the
// Training Operator's labels and the kind's success rule, and status, stages and logs read
// them as they read a TrainJob's.
#include <doctest/doctest.h>

#include "model/step_place.h"
#include "status/job_stages.h"
#include "status/logs/pod_logs.h"
#include "status/status_output.h"
#include "status/trainjob_status.h"

using namespace trainjob;

namespace {

constexpr const char* kMasterRule = R"({"operator":"All","targetReplicatedJobs":["master"]})";

/// The Job `J-r-i` of a legacy kind, as the contract of render's output describes it.
Json legacy_job(const std::string& job, const std::string& type, int index, int replicas,
                const std::string& policy = kMasterRule, const std::string& state = "",
                const std::string& kind = "PyTorchJob") {
  std::string name = job + "-" + type + "-" + std::to_string(index);
  Json labels = {{"training.kubeflow.org/operator-name", "pytorchjob-controller"},
                 {"training.kubeflow.org/job-name", job},
                 {"training.kubeflow.org/replica-type", type},
                 {"training.kubeflow.org/replica-index", std::to_string(index)},
                 {"trainer.kubeflow.org/trainjob-name", job}};
  Json out = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata",
               {{"name", name},
                {"labels", labels},
                {"annotations",
                 {{"kubectl-trainjob/source-kind", kind},
                  {"kubectl-trainjob/success-policy", policy},
                  {"kubectl-trainjob/replicas", std::to_string(replicas)}}}}},
              {"spec", {{"completions", 1}, {"parallelism", 1}}},
              {"status", {{"active", 1}, {"ready", 1}}}};
  if (!state.empty())
    out["status"]["conditions"] =
        Json::array({{{"type", state},
                      {"status", "True"},
                      {"reason", "BackoffLimitExceeded"},
                      {"message", "Job has reached the specified backoff limit"}}});
  return out;
}

Json legacy_pod(const Json& job, const std::string& phase) {
  Json out = {{"metadata",
               {{"name", job["metadata"]["name"].get<std::string>() + "-x7k2p"},
                {"labels", job["metadata"]["labels"]},
                {"creationTimestamp", "2026-01-01T00:00:00Z"}}},
              {"spec",
               {{"nodeName", "n1"},
                {"containers", Json::array({{{"name", "init-helper"}}, {{"name", "pytorch"}}})}}},
              {"status", {{"phase", phase}}}};
  // A non-indexed Job's pod has no completion index.
  return out;
}

}  // namespace

TEST_CASE("step_place: JobSet labels first, else the Training Operator's") {
  StepPlace trainjob = step_place(Json{{"jobset.sigs.k8s.io/replicatedjob-name", "node"},
                                       {"jobset.sigs.k8s.io/job-index", "1"}});
  CHECK(trainjob.step == "node");
  CHECK(trainjob.job_index == "1");
  CHECK_FALSE(trainjob.legacy);
  CHECK(node_label(trainjob, 2) == "node-1-2");
  StepPlace worker = step_place(legacy_job("pt", "worker", 1, 2)["metadata"]["labels"]);
  CHECK(worker.step == "worker");
  CHECK(worker.job_index == "1");
  CHECK(worker.legacy);
  CHECK(node_label(worker, 0) == "worker-1");
  StepPlace launcher = step_place(Json{{"training.kubeflow.org/operator-name", "mpi-operator"},
                                       {"training.kubeflow.org/job-role", "launcher"}});
  CHECK(launcher.step == "launcher");
  CHECK(node_label(launcher, 0) == "launcher-0");
  CHECK(step_place(Json::object()).step.empty());
  CHECK(step_place(Json("not labels")).step.empty());
}

TEST_CASE(
    "status of a PyTorchJob: named by its kind, steps master and worker, the Master decides") {
  std::vector<Json> jobs = {legacy_job("pt", "master", 0, 1), legacy_job("pt", "worker", 0, 2),
                            legacy_job("pt", "worker", 1, 2)};
  std::vector<Json> pods;
  for (const Json& job : jobs)
    pods.push_back(legacy_pod(job, "Running"));
  TrainJobStatus running = compute_status("pt", jobs, pods, {});
  CHECK(running.kind == "PyTorchJob");
  CHECK(running.phase == JobPhase::kRunning);
  REQUIRE(running.steps.size() == 2);
  CHECK(running.steps[0].name == "master");
  CHECK(running.steps[0].success_policy_target);
  CHECK(running.steps[1].name == "worker");
  CHECK_FALSE(running.steps[1].success_policy_target);
  REQUIRE(running.nodes.size() == 3);
  CHECK(running.nodes[0].label == "master-0");
  CHECK(running.nodes[1].label == "worker-0");
  CHECK(running.nodes[2].label == "worker-1");
  CHECK(running.nodes[2].index == 1);
  std::string table = format_status_table(running);
  CHECK(table.rfind("PyTorchJob pt: Running\n", 0) == 0);
  CHECK(table.find("  step worker: Running (not a success-policy target)") != std::string::npos);
  Json json = status_json(running, "default");
  CHECK(json["kind"] == "PyTorchJob");
  CHECK(json["apiVersion"] == "kubeflow.org/v1");
  CHECK(json["status"]["nodes"][2]["node"] == "worker-1");

  jobs[0] = legacy_job("pt", "master", 0, 1, kMasterRule, "Complete");
  CHECK(compute_status("pt", jobs, pods, {}).phase == JobPhase::kComplete);
  jobs[0] = legacy_job("pt", "master", 0, 1);
  jobs[2] = legacy_job("pt", "worker", 1, 2, kMasterRule, "Failed");
  TrainJobStatus failed = compute_status("pt", jobs, pods, {});
  CHECK(failed.phase == JobPhase::kFailed);
  CHECK(failed.message.find("Job pt-worker-1 failed") == 0);
}

TEST_CASE(
    "success policy: All over a replica type counts its Jobs from kubectl-trainjob/replicas") {
  const char* workers = R"({"operator":"All","targetReplicatedJobs":["worker"]})";
  std::optional<SuccessPolicy> policy =
      success_policy_of({legacy_job("j", "worker", 0, 2, workers)});
  REQUIRE(policy);
  // worker-1 not created yet: two are expected.
  CHECK_FALSE(success_policy_met(*policy, {legacy_job("j", "worker", 0, 2, workers, "Complete")}));
  CHECK(success_policy_met(*policy, {legacy_job("j", "worker", 0, 2, workers, "Complete"),
                                     legacy_job("j", "worker", 1, 2, workers, "Complete")}));
  const char* elastic = R"({"operator":"Any","targetReplicatedJobs":["worker"]})";
  policy = success_policy_of({legacy_job("j", "worker", 0, 2, elastic)});
  REQUIRE(policy);
  CHECK(success_policy_met(*policy, {legacy_job("j", "worker", 0, 2, elastic),
                                     legacy_job("j", "worker", 1, 2, elastic, "Complete")}));
}

TEST_CASE("success policy: targetJobs names a TFJob's worker 0") {
  const char* rule = R"({"operator":"All","targetJobs":["tf-worker-0"]})";
  std::vector<Json> jobs = {legacy_job("tf", "ps", 0, 1, rule, "", "TFJob"),
                            legacy_job("tf", "worker", 0, 2, rule, "", "TFJob"),
                            legacy_job("tf", "worker", 1, 2, rule, "", "TFJob")};
  std::optional<SuccessPolicy> policy = success_policy_of(jobs);
  REQUIRE(policy);
  CHECK(policy->target_jobs == std::vector<std::string>{"tf-worker-0"});
  CHECK(policy->targets_job(jobs[1]));
  CHECK_FALSE(policy->targets_job(jobs[0]));
  CHECK_FALSE(policy->targets_job(jobs[2]));
  CHECK(policy->is_target("worker", jobs));
  CHECK_FALSE(policy->is_target("ps", jobs));
  CHECK_FALSE(success_policy_met(*policy, jobs));
  jobs[1] = legacy_job("tf", "worker", 0, 2, rule, "Complete", "TFJob");
  CHECK(success_policy_met(*policy, jobs));
  TrainJobStatus status = compute_status("tf", jobs, {}, {});
  CHECK(status.kind == "TFJob");
  CHECK(status.phase == JobPhase::kComplete);
}

TEST_CASE("logs of a legacy pod come from the kind's default container") {
  Json pod = legacy_pod(legacy_job("pt", "master", 0, 1), "Running");
  CHECK(log_container(pod, "") == "pytorch");
  CHECK(log_container(pod, "init-helper") == "init-helper");
  pod["metadata"]["labels"]["training.kubeflow.org/operator-name"] = "unknown";
  CHECK(log_container(pod, "") == "init-helper");  // none by name: the first
}
