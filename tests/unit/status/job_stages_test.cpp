// dependsOn and successPolicy read back from the Jobs' annotations: which Jobs may start,
// when the TrainJob is complete, and how status shows it.
#include "status/job_stages.h"

#include <doctest/doctest.h>

#include "status/status_output.h"
#include "status/trainjob_status.h"

using namespace trainjob;

namespace {

const char* kPolicy = R"({"operator":"All","targetReplicatedJobs":["launcher"]})";

/// A Job of replicated job `step` (of `replicas` Jobs), in `state` (Complete, Failed or
/// running with `ready` ready pods out of `parallelism`).
Json stage_job(const std::string& name, const std::string& step, const std::string& state = "",
               int parallelism = 2, int ready = 0, int replicas = 1) {
  Json out = Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
      "metadata": {"labels": {}, "annotations": {}}, "spec": {}, "status": {}})");
  out["metadata"]["name"] = name;
  out["metadata"]["labels"]["jobset.sigs.k8s.io/replicatedjob-name"] = step;
  out["metadata"]["labels"]["jobset.sigs.k8s.io/replicatedjob-replicas"] = std::to_string(replicas);
  out["metadata"]["annotations"]["kubectl-trainjob/success-policy"] = kPolicy;
  out["spec"]["parallelism"] = parallelism;
  out["status"]["ready"] = ready;
  out["status"]["active"] = parallelism;
  if (!state.empty())
    out["status"]["conditions"] = Json::array({{{"type", state}, {"status", "True"}}});
  return out;
}

Json launcher(const std::string& state = "") {
  Json out = stage_job("t-launcher-0", "launcher", state, 1);
  out["metadata"]["annotations"]["kubectl-trainjob/depends-on"] =
      R"([{"name":"node","status":"Ready"}])";
  return out;
}

}  // namespace

TEST_CASE("dependsOn annotation: read, with unreadable or unknown entries dropped") {
  std::vector<JobDependency> deps = depends_on_of(launcher());
  REQUIRE(deps.size() == 1);
  CHECK(deps[0].replicated_job == "node");
  CHECK(deps[0].status == "Ready");
  Json odd = launcher();
  odd["metadata"]["annotations"]["kubectl-trainjob/depends-on"] =
      R"([{"name":"node","status":"Running"},{"status":"Ready"},{"name":"x","status":"Complete"}])";
  deps = depends_on_of(odd);
  REQUIRE(deps.size() == 1);
  CHECK(deps[0].replicated_job == "x");
  odd["metadata"]["annotations"]["kubectl-trainjob/depends-on"] = "[{not json";
  CHECK(depends_on_of(odd).empty());
  CHECK(depends_on_of(stage_job("a", "node")).empty());
}

TEST_CASE("Ready as JobSet defines it: ready + succeeded pods >= parallelism") {
  Json node = stage_job("t-node-0", "node", "", 2, 1);
  CHECK_FALSE(job_reached(node, "Ready"));
  node["status"]["succeeded"] = 1;
  CHECK(job_reached(node, "Ready"));
  CHECK_FALSE(job_reached(node, "Complete"));
  CHECK(job_reached(stage_job("t-node-0", "node", "Complete"), "Ready"));
  CHECK(job_reached(stage_job("t-node-0", "node", "Complete"), "Complete"));
  CHECK_FALSE(job_reached(stage_job("t-node-0", "node", "Failed", 2, 2), "Ready"));
}

TEST_CASE("stages: the launcher waits until every node Job is Ready") {
  std::vector<Json> planned = {stage_job("t-node-0", "node"), stage_job("t-node-1", "node"),
                               launcher()};
  CHECK(dependencies_met(planned[0], planned, {}));
  CHECK_FALSE(dependencies_met(planned[2], planned, {}));
  std::vector<Json> live = {stage_job("t-node-0", "node", "", 2, 2)};
  CHECK_FALSE(dependencies_met(planned[2], planned, live));  // t-node-1 not there yet
  live.push_back(stage_job("t-node-1", "node", "", 2, 1));
  CHECK_FALSE(dependencies_met(planned[2], planned, live));  // t-node-1 half ready
  live[1]["status"]["ready"] = 2;
  CHECK(dependencies_met(planned[2], planned, live));
}

TEST_CASE("stages without annotations: the trainer waits for the initializers to complete") {
  std::vector<Json> planned = {stage_job("t-dataset-initializer-0", "dataset-initializer"),
                               stage_job("t-node-0", "node")};
  for (Json& j : planned)
    j["metadata"]["annotations"].erase("kubectl-trainjob/success-policy");
  CHECK(is_initializer_job(planned[0]));
  CHECK(dependencies_met(planned[0], planned, {}));
  CHECK_FALSE(dependencies_met(planned[1], planned, {}));
  std::vector<Json> live = {
      stage_job("t-dataset-initializer-0", "dataset-initializer", "Complete")};
  CHECK(dependencies_met(planned[1], planned, live));
}

TEST_CASE("success policy: All needs every target Job complete, Any one; others do not count") {
  std::optional<SuccessPolicy> policy = success_policy_of({stage_job("t-node-0", "node")});
  REQUIRE(policy);
  CHECK(policy->op == "All");
  CHECK(policy->is_target("launcher"));
  CHECK_FALSE(policy->is_target("node"));
  CHECK_FALSE(success_policy_met(*policy, {stage_job("t-node-0", "node", "Complete")}));
  CHECK(success_policy_met(*policy, {stage_job("t-node-0", "node"), launcher("Complete")}));
  CHECK_FALSE(success_policy_met(*policy, {launcher()}));

  Json first = stage_job("t-launcher-0", "launcher", "Complete", 1, 0, 2);
  Json second = stage_job("t-launcher-1", "launcher", "", 1, 0, 2);
  CHECK_FALSE(success_policy_met(*policy, {first}));  // the second is not created yet
  CHECK_FALSE(success_policy_met(*policy, {first, second}));
  policy->op = "Any";
  CHECK(success_policy_met(*policy, {first, second}));

  SuccessPolicy everything;  // no targets: every replicated job
  CHECK_FALSE(success_policy_met(everything, {first, second}));
  second["status"]["conditions"] = first["status"]["conditions"];
  CHECK(success_policy_met(everything, {first, second}));

  Json unreadable = stage_job("t-node-0", "node");
  unreadable["metadata"]["annotations"]["kubectl-trainjob/success-policy"] =
      R"({"operator":"Sometimes"})";
  CHECK_FALSE(success_policy_of({unreadable}));
  unreadable["metadata"]["annotations"]["kubectl-trainjob/success-policy"] = "{";
  CHECK_FALSE(success_policy_of({unreadable}));
}

TEST_CASE("status with a success policy: judged by the launcher, nodes marked as no target") {
  TrainJobStatus running = compute_status("t", {stage_job("t-node-0", "node", "", 2, 2)}, {}, {});
  CHECK(running.phase == JobPhase::kPending);
  REQUIRE(running.steps.size() == 2);
  CHECK_FALSE(running.steps[0].success_policy_target);
  CHECK(running.steps[1].name == "launcher");
  CHECK(running.steps[1].state == JobPhase::kNotCreated);
  CHECK(format_status_table(running).find("  step node: Running (not a success-policy target)\n") !=
        std::string::npos);

  TrainJobStatus done =
      compute_status("t", {stage_job("t-node-0", "node", "", 2, 2), launcher("Complete")}, {}, {});
  CHECK(done.phase == JobPhase::kComplete);
  Json json = status_json(done, "default");
  CHECK(json["status"]["steps"][0]["successPolicyTarget"] == false);
  CHECK_FALSE(json["status"]["steps"][1].contains("successPolicyTarget"));

  Json failed = launcher("Failed");
  failed["status"]["conditions"][0]["reason"] = "DeadlineExceeded";
  TrainJobStatus bad = compute_status("t", {stage_job("t-node-0", "node"), failed}, {}, {});
  CHECK(bad.phase == JobPhase::kFailed);
  CHECK(bad.reason == "DeadlineExceeded");
}

TEST_CASE("status: Failed is terminal, a success policy met after a failure does not complete") {
  auto at = [](Json job, const char* time) {
    job["status"]["conditions"][0]["lastTransitionTime"] = time;
    return job;
  };
  Json node = at(stage_job("t-node-0", "node", "Failed"), "2026-01-01T10:00:00Z");
  TrainJobStatus late =
      compute_status("t", {node, at(launcher("Complete"), "2026-01-01T10:05:00Z")}, {}, {});
  CHECK(late.phase == JobPhase::kFailed);
  REQUIRE(late.conditions.size() == 1);
  CHECK(late.conditions[0].type == "Failed");
  CHECK(late.completion_time == "2026-01-01T10:00:00Z");
  // A node Job that fails once the launcher completed (its pods ended with the launcher)
  // fails nothing: the TrainJob had completed.
  Json done = launcher("Complete");
  done["status"]["completionTime"] = "2026-01-01T09:59:00Z";
  CHECK(compute_status("t", {node, done}, {}, {}).phase == JobPhase::kComplete);
  // Without times, the success policy decides as before.
  CHECK(compute_status("t", {stage_job("t-node-0", "node", "Failed"), launcher("Complete")}, {}, {})
            .phase == JobPhase::kComplete);
}

TEST_CASE("status of suspended Jobs: resume hint, or the Kueue queue") {
  Json a = stage_job("t-node-0", "node");
  a["spec"]["suspend"] = true;
  a["metadata"]["annotations"].erase("kubectl-trainjob/success-policy");
  TrainJobStatus status = compute_status("t", {a}, {}, {});
  CHECK(status.phase == JobPhase::kSuspended);
  CHECK(status.message == "suspended; `kubectl trainjob resume t` starts it");
  a["metadata"]["labels"]["kueue.x-k8s.io/queue-name"] = "team-a";
  CHECK(compute_status("t", {a}, {}, {}).message == "waiting for Kueue admission in queue team-a");
}
