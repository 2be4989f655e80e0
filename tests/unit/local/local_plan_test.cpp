// `run --local`: what the rendered Jobs become on this machine.
#include "local/plan/local_plan.h"

#include <doctest/doctest.h>

namespace trainjob {
namespace {

Json plan_job(const std::string& name, const std::string& step, int pods, const Json& pod_spec) {
  return Json{
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata",
       {{"name", name},
        {"labels",
         {{"jobset.sigs.k8s.io/replicatedjob-name", step},
          {"trainer.kubeflow.org/trainjob-ancestor-step", step == "node" ? "trainer" : step}}}}},
      {"spec", {{"completions", pods}, {"template", {{"spec", pod_spec}}}}}};
}

LocalOptions plan_options() {
  LocalOptions local;
  local.work_dir = "/work";
  local.master_port = "40000";
  local.image_dirs["example/trainer"] = "/opt/trainer/bin";
  return local;
}

TEST_CASE("initializer Jobs form the first stage, the other Jobs the second") {
  Json node_spec = Json::parse(R"J({"subdomain": "tj", "containers": [{"name": "node",
      "image": "example/trainer:1.0", "command": ["train", "--master=$(PET_MASTER_ADDR)"],
      "env": [{"name": "PET_MASTER_ADDR", "value": "tj-node-0-0.tj"},
              {"name": "PET_MASTER_PORT", "value": "29500"}]}]})J");
  Json init_spec = Json::parse(R"J({"containers": [{"name": "dataset-initializer",
      "image": "x", "command": ["fetch"]}]})J");
  std::vector<Json> objects{
      plan_job("tj-node-0", "node", 2, node_spec),
      plan_job("tj-dataset-initializer-0", "dataset-initializer", 1, init_spec)};
  LocalPlan plan;
  std::string error;
  REQUIRE(plan_local_run(objects, {}, plan_options(), &plan, &error));
  REQUIRE(plan.stages.size() == 2);
  CHECK(plan.stages[0].size() == 1);
  CHECK(plan.stages[0][0].label == "dataset-initializer-0");
  REQUIRE(plan.stages[1].size() == 2);
  const LocalPod& second = plan.stages[1][1];
  CHECK(second.label == "node-1");
  CHECK(second.name == "tj-node-0-1-local");
  CHECK(second.hostname == "tj-node-0-1");
  const LocalContainer& node = second.containers.at(0);
  CHECK(node.argv == std::vector<std::string>{"train", "--master=127.0.0.1"});
  CHECK(node.path_prefix == "/opt/trainer/bin");
  CHECK(node.env == EnvList{{"PET_MASTER_ADDR", "127.0.0.1"},
                            {"PET_MASTER_PORT", "40000"},
                            {"HOSTNAME", "tj-node-0-1"}});
  CHECK(plan.rewrites == std::vector<std::string>{"PET_MASTER_ADDR tj-node-0-0.tj -> 127.0.0.1",
                                                  "PET_MASTER_PORT 29500 -> 40000"});
}

TEST_CASE("volumes live under the work directory and mount paths are rewritten") {
  Json spec = Json::parse(R"J({"volumes": [
      {"name": "script", "configMap": {"name": "code"}},
      {"name": "scratch", "emptyDir": {}},
      {"name": "data", "hostPath": {"path": "/srv/data"}}],
    "containers": [{"name": "node", "command": ["python", "/workspace/train.py"],
      "workingDir": "/scratch", "args": ["--data", "/data/set"],
      "volumeMounts": [{"name": "script", "mountPath": "/workspace"},
                       {"name": "scratch", "mountPath": "/scratch"},
                       {"name": "data", "mountPath": "/data", "subPath": "sub"}]}]})J");
  Json config_map = Json::parse(R"J({"kind": "ConfigMap", "data": {"train.py": "print(1)"}})J");
  LocalPlan plan;
  std::string error;
  REQUIRE(plan_local_run({plan_job("tj-node-0", "node", 1, spec)}, {{"default/code", &config_map}},
                         plan_options(), &plan, &error));
  const LocalPod& pod = plan.stages.at(0).at(0);
  CHECK(pod.volumes.at(0).host_dir == "/work/tj-node-0-0-local/script");
  CHECK(pod.volumes.at(0).config_map == &config_map);
  CHECK(pod.volumes.at(2).host_dir == "/srv/data");
  const LocalContainer& node = pod.containers.at(0);
  CHECK(node.argv == std::vector<std::string>{"python", "/work/tj-node-0-0-local/script/train.py",
                                              "--data", "/srv/data/sub/set"});
  CHECK(node.working_dir == "/work/tj-node-0-0-local/scratch");
}

TEST_CASE("what cannot be provided locally is an error naming the pod") {
  LocalPlan plan;
  std::string error;
  Json missing = Json::parse(R"J({"volumes": [{"name": "s", "configMap": {"name": "absent"}}],
      "containers": [{"name": "node", "command": ["x"]}]})J");
  CHECK_FALSE(plan_local_run({plan_job("tj-node-0", "node", 1, missing)}, {}, plan_options(), &plan,
                             &error));
  CHECK(error ==
        "pod tj-node-0-0-local: ConfigMap \"absent\" is not among the inputs; add it "
        "with -f, or build it with --from-file");
  Json claim = Json::parse(R"J({"volumes": [{"name": "c", "persistentVolumeClaim": {}}],
      "containers": [{"name": "node", "command": ["x"], "volumeMounts": [{"name": "c",
      "mountPath": "/c"}]}]})J");
  CHECK_FALSE(
      plan_local_run({plan_job("tj-node-0", "node", 1, claim)}, {}, plan_options(), &plan, &error));
  CHECK(error.find("container node: volume \"c\" is not a configMap, hostPath or emptyDir") !=
        std::string::npos);
  Json no_command = Json::parse(R"J({"containers": [{"name": "node", "image": "busybox"}]})J");
  CHECK_FALSE(plan_local_run({plan_job("tj-node-0", "node", 1, no_command)}, {}, plan_options(),
                             &plan, &error));
  CHECK(error.find("no command: the entrypoint of image \"busybox\"") != std::string::npos);
  CHECK_FALSE(plan_local_run({}, {}, plan_options(), &plan, &error));
  CHECK(error == "no Jobs to run: the inputs hold no TrainJob");
}

}  // namespace
}  // namespace trainjob
