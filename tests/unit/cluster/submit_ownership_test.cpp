// Who made an object submit applies (never take over the user's), what delete takes as
// targets, and the last frame of `status --watch`, read anew.
#include "cluster/submit_ownership.h"

#include <doctest/doctest.h>

#include "../../support/kube_fakes.h"
#include "kube/client.h"
#include "status/status_output.h"
#include "status/status_query.h"
#include "status/trainjob_names.h"

using namespace trainjob;

namespace {

Json config_map(const Json& labels) {
  Json out = {{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", "script"}}},
              {"data", {{"train.py", "print(1)"}}}};
  if (!labels.empty()) out["metadata"]["labels"] = labels;
  return out;
}

const Json kOurs = {{"trainer.kubeflow.org/trainjob-name", "demo"},
                    {"kubectl-trainjob/created-by-submit", "true"}};

}  // namespace

TEST_CASE("an object is the TrainJob's only when submit created it for that TrainJob") {
  Json object = config_map(kOurs);
  CHECK(created_by_submit_for(config_map(kOurs), object, "demo"));
  // kubectl create configmap: no label at all; or only the TrainJob's name, set by the user.
  CHECK_FALSE(created_by_submit_for(config_map(Json::object()), object, "demo"));
  CHECK_FALSE(created_by_submit_for(config_map({{"trainer.kubeflow.org/trainjob-name", "demo"}}),
                                    object, "demo"));
  // Another TrainJob's submit made it.
  Json other = config_map(kOurs);
  other["metadata"]["labels"]["trainer.kubeflow.org/trainjob-name"] = "other";
  CHECK_FALSE(created_by_submit_for(other, object, "demo"));
  CHECK(not_created_by_submit(other) == "was created by submit for TrainJob other");
  CHECK(not_created_by_submit(config_map(Json::object())) == "was not created by submit");
  // A sweep's document, made by the first trial's submit, is the next trial's too.
  Json trial = other;
  trial["metadata"]["labels"]["trainer.kubeflow.org/optimizationjob-name"] = "sweep";
  Json applied = object;
  applied["metadata"]["labels"]["trainer.kubeflow.org/optimizationjob-name"] = "sweep";
  CHECK(created_by_submit_for(trial, applied, "demo"));
  CHECK_FALSE(created_by_submit_for(other, applied, "demo"));
}

TEST_CASE("the apply of an object submit did not create keeps its marks as they are") {
  Json object = config_map(kOurs);
  object["metadata"]["labels"]["app.kubernetes.io/managed-by"] = "kubectl-trainjob";
  object["metadata"]["labels"]["team"] = "a";
  object["metadata"]["annotations"] = {{"kubectl-trainjob/submitted-kinds", "v1/ConfigMap"}};
  // The user's: none of ours.
  Json bare = with_marks_of(object, config_map(Json::object()));
  CHECK(bare["metadata"]["labels"] == Json{{"team", "a"}});
  CHECK_FALSE(bare["metadata"].contains("annotations"));
  CHECK(bare["data"] == object["data"]);
  // Another TrainJob's: its marks, which our field manager owns and would otherwise drop.
  Json other = config_map(kOurs);
  other["metadata"]["labels"]["trainer.kubeflow.org/trainjob-name"] = "other";
  Json kept = with_marks_of(object, other);
  CHECK(kept["metadata"]["labels"] == Json{{"trainer.kubeflow.org/trainjob-name", "other"},
                                           {"kubectl-trainjob/created-by-submit", "true"},
                                           {"team", "a"}});
}

TEST_CASE("what an apply would change, without what the server keeps by itself") {
  Json live = config_map(Json::object());
  live["metadata"]["resourceVersion"] = "1";
  live["metadata"]["managedFields"] = Json::array({{{"manager", "kubectl-create"}}});
  Json same = live;
  same["metadata"]["resourceVersion"] = "2";
  same["metadata"]["managedFields"].push_back({{"manager", "kubectl-trainjob"}});
  CHECK(changed_fields(live, same).empty());
  Json changed = live;
  changed["data"]["train.py"] = "print(2)";
  changed["data"]["extra.py"] = "";
  changed["metadata"]["labels"] = {{"team", "a"}};
  CHECK(changed_fields(live, changed) ==
        std::vector<std::string>{"metadata.labels", "data.train.py", "data.extra.py"});
  Json job = {{"spec", {{"ports", Json::array({1, 2})}}}};
  Json other_ports = {{"spec", {{"ports", Json::array({1, 3})}}}};
  CHECK(changed_fields(job, other_ports) == std::vector<std::string>{"spec.ports"});
}

TEST_CASE("delete's targets: NAME..., TYPE NAME..., TYPE/NAME...") {
  std::string error;
  auto names = [](const std::vector<TrainJobTarget>& targets) {
    std::string out;
    for (const TrainJobTarget& t : targets)
      out += (t.kind ? t.kind->kind + "/" : std::string()) + t.name + " ";
    return out;
  };
  CHECK(names(*parse_trainjob_targets({"a", "b", "c"}, &error, true)) == "a b c ");
  CHECK(names(*parse_trainjob_targets({"trainjob", "a", "b"}, &error, true)) ==
        "TrainJob/a TrainJob/b ");
  CHECK(names(*parse_trainjob_targets({"pytorchjob/a", "trainjob/b"}, &error, true)) ==
        "PyTorchJob/a TrainJob/b ");
  CHECK(names(*parse_trainjob_targets({"optimizationjob", "s"}, &error, true)) ==
        "OptimizationJob/s ");
  CHECK(names(*parse_trainjob_targets({"a"}, &error, true)) == "a ");
  // kubectl refuses a TYPE word beside TYPE/NAME, and a typo of a TYPE is not a NAME.
  CHECK_FALSE(parse_trainjob_targets({"trainjob/a", "b"}, &error, true));
  CHECK(error.find("TYPE/NAME") != std::string::npos);
  CHECK_FALSE(parse_trainjob_targets({"trainjb", "a"}, &error, true));
  CHECK(error.find("did you mean \"trainjob\"") != std::string::npos);
}

TEST_CASE("a suspended TrainJob's table says it has no pods instead of an empty header") {
  TrainJobStatus status;
  status.name = "s";
  status.phase = JobPhase::kSuspended;
  std::string table = format_status_table(status);
  CHECK(table.find("No pods: the TrainJob is suspended.\n") != std::string::npos);
  CHECK(table.find("STEP") == std::string::npos);
}

TEST_CASE("status --watch ends on the Jobs and pods read anew, not the watch's older pods") {
  // What the watch had: the Job Failed, its pod's exit not seen yet.
  TrainJobStatus seen;
  seen.name = "demo";
  seen.phase = JobPhase::kFailed;
  NodeStatus running;
  running.step = "node";
  running.label = "node-0";
  running.phase = JobPhase::kRunning;
  running.ready = true;
  seen.nodes = {running};
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  RestConfig config;
  config.server = "https://api.example";
  KubeClient client(config, &transport, &env, &clock);
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": [{
      "apiVersion": "batch/v1", "kind": "Job",
      "metadata": {"name": "demo-node-0", "labels": {"jobset.sigs.k8s.io/replicatedjob-name": "node"}},
      "spec": {"parallelism": 1},
      "status": {"failed": 1, "conditions": [{"type": "Failed", "status": "True",
                 "reason": "BackoffLimitExceeded", "message": "backoff"}]}}]})"));
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": [{
      "metadata": {"name": "demo-node-0-0-x", "creationTimestamp": "2026-01-01T00:00:00Z",
                   "labels": {"jobset.sigs.k8s.io/replicatedjob-name": "node"},
                   "annotations": {"batch.kubernetes.io/job-completion-index": "0"}},
      "spec": {"nodeName": "n1"},
      "status": {"phase": "Failed", "containerStatuses": [{"name": "node", "restartCount": 0,
                 "state": {"terminated": {"exitCode": 3, "reason": "Error"}}}]}}]})"));
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  TrainJobStatus last = final_frame(&client, "team", "demo", seen);
  REQUIRE(last.nodes.size() == 1);
  CHECK(last.phase == JobPhase::kFailed);
  CHECK(last.nodes[0].phase == JobPhase::kFailed);
  CHECK(last.nodes[0].exit_code == 3);
  CHECK(transport.requests.size() == 3);  // Jobs, pods, pod events
  // Gone meanwhile: what the watch saw stays the end.
  transport.requests.clear();
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  CHECK(final_frame(&client, "team", "demo", seen).nodes[0].phase == JobPhase::kRunning);
}
