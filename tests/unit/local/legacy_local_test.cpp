// `run --local` of a legacy kind's Jobs: one pod per Job with the operator's hostname, the
// operator's DNS names on loopback, a local port per pod address, and the kind's rule.
#include <memory>

#include <doctest/doctest.h>

#include "local/plan/local_plan.h"
#include "local/plan/local_success.h"

namespace trainjob {
namespace {

/// The Job `J-r-i` render compiles for a legacy pod, with `env` on its one container.
Json legacy_job(const std::string& job, const std::string& type, int index, const Json& env,
                const std::string& policy, const std::string& kind = "PyTorchJob") {
  std::string name = job + "-" + type + "-" + std::to_string(index);
  return Json{
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata",
       {{"name", name},
        {"namespace", "team"},
        {"labels",
         {{"training.kubeflow.org/replica-type", type},
          {"training.kubeflow.org/replica-index", std::to_string(index)}}},
        {"annotations",
         {{"kubectl-trainjob/source-kind", kind}, {"kubectl-trainjob/success-policy", policy}}}}},
      {"spec",
       {{"completions", 1},
        {"template",
         {{"spec",
           {{"hostname", name},
            {"containers", Json::array({{{"name", "main"},
                                         {"image", "busybox"},
                                         {"command", Json::array({"sh", "-c", "env"})},
                                         {"env", env}}})}}}}}}}};
}

LocalOptions options() {
  LocalOptions local;
  local.work_dir = "/work";
  local.master_port = "40000";
  auto next = std::make_shared<int>(41000);
  local.free_port = [next] { return std::to_string((*next)++); };
  return local;
}

std::string env_of(const LocalPod& pod, const std::string& name) {
  for (const auto& [key, value] : pod.containers.at(0).env)
    if (key == name) return value;
  return "<unset>";
}

const char* kMaster = R"({"operator":"All","targetReplicatedJobs":["master"]})";

}  // namespace

TEST_CASE("a PyTorchJob's pods: the operator's hostnames, MASTER_ADDR on loopback, one port") {
  Json master_env = Json::parse(R"([{"name": "MASTER_PORT", "value": "23456"},
      {"name": "MASTER_ADDR", "value": "pt-master-0"}, {"name": "RANK", "value": "0"},
      {"name": "PET_MASTER_ADDR", "value": "pt-master-0.team.svc.cluster.local"},
      {"name": "PET_MASTER_PORT", "value": "23456"}])");
  Json worker_env = master_env;
  worker_env[2]["value"] = "1";
  LocalPlan plan;
  std::string error;
  REQUIRE(plan_local_run({legacy_job("pt", "master", 0, master_env, kMaster),
                          legacy_job("pt", "worker", 0, worker_env, kMaster)},
                         {}, options(), &plan, &error));
  REQUIRE(plan.stages.size() == 1);
  REQUIRE(plan.stages[0].size() == 2);
  const LocalPod& worker = plan.stages[0][1];
  CHECK(worker.label == "worker-0");
  CHECK(worker.step == "worker");
  CHECK(worker.hostname == "pt-worker-0");
  CHECK(worker.name == "pt-worker-0-local");
  CHECK(env_of(worker, "MASTER_ADDR") == "127.0.0.1");
  CHECK(env_of(worker, "PET_MASTER_ADDR") == "127.0.0.1");
  CHECK(env_of(worker, "MASTER_PORT") == "40000");
  CHECK(env_of(worker, "PET_MASTER_PORT") == "40000");
  CHECK(env_of(worker, "RANK") == "1");
  CHECK(env_of(worker, "HOSTNAME") == "pt-worker-0");
  CHECK(env_of(plan.stages[0][0], "MASTER_PORT") == "40000");
  REQUIRE(plan.rule);
  CHECK(plan.rule->kind == "PyTorchJob");
  CHECK(plan.rule->steps == std::vector<std::string>{"master"});
  CHECK(plan.rewrites == std::vector<std::string>{
                             "MASTER_PORT 23456 -> 40000", "MASTER_ADDR pt-master-0 -> 127.0.0.1",
                             "PET_MASTER_ADDR pt-master-0.team.svc.cluster.local -> 127.0.0.1",
                             "PET_MASTER_PORT 23456 -> 40000"});
}

TEST_CASE("TF_CONFIG: every pod address gets a local port of its own, the same in every pod") {
  auto tf_config = [](const std::string& type, int index) {
    return Json::array(
        {{{"name", "TF_CONFIG"},
          {"value",
           R"({"cluster":{"ps":["tf-ps-0.team.svc:2222"],"worker":["tf-worker-0.team.svc:2222","tf-worker-1.team.svc:2222"]},"task":{"type":")" +
               type + R"(","index":)" + std::to_string(index) + R"(},"environment":"cloud"})"}}});
  };
  const char* rule = R"({"operator":"All","targetJobs":["tf-worker-0"]})";
  LocalPlan plan;
  std::string error;
  REQUIRE(plan_local_run({legacy_job("tf", "ps", 0, tf_config("ps", 0), rule, "TFJob"),
                          legacy_job("tf", "worker", 0, tf_config("worker", 0), rule, "TFJob"),
                          legacy_job("tf", "worker", 1, tf_config("worker", 1), rule, "TFJob")},
                         {}, options(), &plan, &error));
  REQUIRE(plan.stages.at(0).size() == 3);
  // Ports in the order of (pod hostname, port): tf-ps-0, tf-worker-0, tf-worker-1.
  CHECK(
      env_of(plan.stages[0][2], "TF_CONFIG") ==
      R"({"cluster":{"ps":["127.0.0.1:41000"],"worker":["127.0.0.1:41001","127.0.0.1:41002"]},"task":{"type":"worker","index":1},"environment":"cloud"})");
  CHECK(env_of(plan.stages[0][0], "TF_CONFIG").find(R"("ps":["127.0.0.1:41000"])") !=
        std::string::npos);
  CHECK(plan.rule->jobs == std::vector<std::string>{"tf-worker-0"});
}

TEST_CASE("a pod's own $(POD_IP):port is the address the others reach it at") {
  Json master_env = Json::parse(R"([{"name": "POD_IP_DUMMY",
      "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
      {"name": "PADDLE_MASTER", "value": "$(POD_IP_DUMMY):36543"}])");
  Json worker_env = Json::parse(R"([{"name": "PADDLE_MASTER", "value": "pd-master-0:36543"}])");
  LocalPlan plan;
  std::string error;
  REQUIRE(plan_local_run({legacy_job("pd", "master", 0, master_env, kMaster, "PaddleJob"),
                          legacy_job("pd", "worker", 0, worker_env, kMaster, "PaddleJob")},
                         {}, options(), &plan, &error));
  CHECK(env_of(plan.stages[0][0], "PADDLE_MASTER") == "127.0.0.1:41000");
  CHECK(env_of(plan.stages[0][1], "PADDLE_MASTER") == "127.0.0.1:41000");
}

TEST_CASE("a name that only starts like a pod's is left alone") {
  Json env = Json::parse(R"([{"name": "A", "value": "pt-master-00:23456,xpt-master-0:1"},
      {"name": "B", "value": "pt-master-0:23456x"}])");
  LocalPlan plan;
  std::string error;
  REQUIRE(
      plan_local_run({legacy_job("pt", "master", 0, env, kMaster)}, {}, options(), &plan, &error));
  CHECK(env_of(plan.stages[0][0], "A") == "pt-master-00:23456,xpt-master-0:1");
  CHECK(env_of(plan.stages[0][0], "B") == "127.0.0.1:23456x");
}

TEST_CASE("the kind's rule judges the pods' outcomes") {
  LocalSuccessRule master{"PyTorchJob", false, {"master"}, {}};
  using O = PodOutcome;
  auto pods = [](O m, O w) {
    return std::vector<PodResult>{{"master", "pt-master-0", m}, {"worker", "pt-worker-0", w}};
  };
  CHECK(judge(master, pods(O::kRunning, O::kFailed)) == RuleVerdict::kUndecided);
  CHECK(judge(master, pods(O::kSucceeded, O::kFailed)) == RuleVerdict::kMet);
  CHECK(judge(master, pods(O::kFailed, O::kSucceeded)) == RuleVerdict::kFailed);
  LocalSuccessRule any{"PyTorchJob", true, {"worker"}, {}};
  std::vector<PodResult> workers = {{"worker", "e-worker-0", O::kFailed},
                                    {"worker", "e-worker-1", O::kRunning}};
  CHECK(judge(any, workers) == RuleVerdict::kUndecided);
  workers[1].outcome = O::kSucceeded;
  CHECK(judge(any, workers) == RuleVerdict::kMet);
  workers[1].outcome = O::kFailed;
  CHECK(judge(any, workers) == RuleVerdict::kFailed);
  LocalSuccessRule named{"TFJob", false, {}, {"tf-worker-0"}};
  CHECK(judge(named, {{"ps", "tf-ps-0", O::kRunning}, {"worker", "tf-worker-0", O::kSucceeded}}) ==
        RuleVerdict::kMet);
  CHECK(judge(named, {{"ps", "tf-ps-0", O::kSucceeded}}) == RuleVerdict::kFailed);
  CHECK(master.describe() == "master");
  CHECK(any.describe() == "any of worker");
}

TEST_CASE("the rule comes from the source-kind Job's annotation; none for a TrainJob") {
  CHECK_FALSE(local_success_rule({Json{{"kind", "Job"}}}));
  Json job = legacy_job("pt", "master", 0, Json::array(), "{not json");
  std::optional<LocalSuccessRule> rule = local_success_rule({job});
  REQUIRE(rule);
  CHECK(rule->steps.empty());
  CHECK(rule->describe() == "every pod");
}

}  // namespace trainjob
