// `status` and `delete` of an OptimizationJob: a trial read from its objects' labels and
// annotations (malformed ones included, as they come from the cluster), the sweep's phase,
// table and upstream-shaped JSON, the optimizationjob TYPE words, and a trial's metrics
// merged from every progress line of rank 0's log.
#include "status/sweep_status.h"

#include <doctest/doctest.h>

#include "../../support/kube_fakes.h"
#include "kube/client.h"
#include "status/sweep/sweep_trials.h"
#include "status/trainjob_names.h"

using namespace trainjob;

namespace {

Json sweep_object(const std::string& kind, const std::string& trial, const std::string& index,
                  const std::string& parameters) {
  Json out = {{"apiVersion", kind == "Job" ? "batch/v1" : "v1"},
              {"kind", kind},
              {"metadata",
               {{"name", trial},
                {"labels",
                 {{"trainer.kubeflow.org/optimizationjob-name", "sweep"},
                  {"kubectl-trainjob/trial-index", index},
                  {"trainer.kubeflow.org/trainjob-name", trial}}},
                {"annotations",
                 {{"trainer.kubeflow.org/optimization-parameters", parameters},
                  {"kubectl-trainjob/optimization-objective",
                   R"({"direction":"Maximize","metric":"accuracy"})"}}}}}};
  return out;
}

TrialResult sweep_result(int64_t index, const std::string& value, TrialState state,
                         NamedValues metrics) {
  TrialResult out;
  out.index = index;
  out.name = "sweep-trial-" + std::to_string(index);
  out.values = {{"lr", value}, {"batch", "32"}};
  out.state = state;
  out.metrics = std::move(metrics);
  return out;
}

SweepStatus sweep_of(std::vector<TrialResult> trials) {
  SweepStatus out;
  out.name = "sweep";
  out.objective = {"loss", false};
  out.trials = std::move(trials);
  return out;
}

}  // namespace

TEST_CASE("a trial is read from any of its objects, values in parameter order") {
  Json job = sweep_object("Job", "sweep-trial-2", "2", R"({"lr":"0.01","batch":"32"})");
  job["metadata"]["annotations"]["kubectl-trainjob/optimization-seed"] = "42";
  job["metadata"]["annotations"]["kubectl-trainjob/optimization-trials"] = "8";
  std::optional<TrialObject> trial = read_trial_object(job);
  REQUIRE(trial);
  CHECK(trial->optimization_job == "sweep");
  CHECK(trial->index == 2);
  CHECK(trial->trial == "sweep-trial-2");
  CHECK(trial->values == NamedValues{{"lr", "0.01"}, {"batch", "32"}});
  REQUIRE(trial->objective);
  CHECK(trial->objective->metric == "accuracy");
  CHECK(trial->objective->maximize);
  CHECK(trial->seed == "42");
  CHECK(trial->num_trials == 8);
}

TEST_CASE("what the cluster holds may be malformed: no error, only less known") {
  Json odd = sweep_object("Service", "sweep-trial-3", "x3", "not json");
  odd["metadata"]["annotations"]["kubectl-trainjob/optimization-objective"] = "[1]";
  std::optional<TrialObject> trial = read_trial_object(odd);
  REQUIRE(trial);
  CHECK(trial->index == 0);
  CHECK(trial->values.empty());
  CHECK_FALSE(trial->objective);
  Json numbers = sweep_object("Job", "sweep-trial-1", "1", R"({"epochs":3})");
  CHECK(read_trial_object(numbers)->values == NamedValues{{"epochs", "3"}});
  Json unnamed = numbers;
  unnamed["metadata"]["labels"].erase("trainer.kubeflow.org/trainjob-name");
  CHECK(read_trial_object(unnamed)->trial == "sweep-trial-1");
  unnamed["metadata"]["labels"].erase("kubectl-trainjob/trial-index");
  CHECK_FALSE(read_trial_object(unnamed));
  CHECK_FALSE(read_trial_object(Json{{"metadata", {{"name", "plain"}}}}));
}

TEST_CASE("one trial per TrainJob, by index, a field one object lacks taken from another") {
  Json service = sweep_object("Service", "sweep-trial-10", "10", "");
  Json job = sweep_object("Job", "sweep-trial-10", "10", R"({"lr":"0.1"})");
  Json other = sweep_object("Job", "sweep-trial-2", "2", R"({"lr":"0.2"})");
  std::vector<TrialObject> trials = distinct_trials({service, job, other});
  REQUIRE(trials.size() == 2);
  CHECK(trials[0].trial == "sweep-trial-2");
  CHECK(trials[1].trial == "sweep-trial-10");
  CHECK(trials[1].values == NamedValues{{"lr", "0.1"}});
}

TEST_CASE("a trial's state from its TrainJob's phase") {
  CHECK(trial_state_of(JobPhase::kComplete) == TrialState::kSucceeded);
  CHECK(trial_state_of(JobPhase::kFailed) == TrialState::kFailed);
  CHECK(trial_state_of(JobPhase::kStopped) == TrialState::kFailed);
  CHECK(trial_state_of(JobPhase::kPending) == TrialState::kRunning);
  CHECK(trial_state_of(JobPhase::kSuspended) == TrialState::kRunning);
}

TEST_CASE("the sweep runs while a trial runs, then is Complete when one succeeded") {
  SweepStatus status = sweep_of({sweep_result(1, "0.1", TrialState::kSucceeded, {{"loss", "0.3"}}),
                                 sweep_result(2, "0.2", TrialState::kRunning, {{"loss", "0.1"}}),
                                 sweep_result(3, "0.3", TrialState::kFailed, {})});
  CHECK(sweep_phase(status) == JobPhase::kRunning);
  std::string text = format_sweep_status(status);
  CHECK(text.find(
            "OptimizationJob sweep: Running (3 trials: 1 running, 1 succeeded, 1 failed)\n") == 0);
  CHECK(text.find("best: sweep-trial-1 (lr=0.1, batch=32): loss 0.3 (Minimize)\n") !=
        std::string::npos);
  status.num_trials = 5;  // two not created yet
  CHECK(format_sweep_status(status).find(
            "(5 trials: 1 running, 1 succeeded, 1 failed, 2 not created)\n") != std::string::npos);
  status.num_trials = 0;
  status.trials[1].state = TrialState::kSucceeded;
  CHECK(sweep_phase(status) == JobPhase::kComplete);
  CHECK(format_sweep_status(status).find("best: sweep-trial-2 ") != std::string::npos);
  status.trials[2].state = TrialState::kStopped;
  status.trials[2].message = "its Jobs are gone";
  std::string stopped = format_sweep_status(status);
  CHECK(stopped.find("(3 trials: 2 succeeded, 1 stopped)") != std::string::npos);
  CHECK(stopped.find("\nsweep-trial-3: its Jobs are gone\n") != std::string::npos);
  status.trials[0].state = status.trials[1].state = TrialState::kFailed;
  CHECK(sweep_phase(status) == JobPhase::kFailed);
  CHECK(format_sweep_status(status).find("best: none: no trial succeeded with a value of loss") !=
        std::string::npos);
}

TEST_CASE("a search that stopped before its end is Stopped, and says why, not Complete") {
  Json job = sweep_object("Job", "sweep-trial-1", "1", R"({"lr":"0.1"})");
  job["metadata"]["annotations"]["kubectl-trainjob/optimization-stopped"] = "interrupted";
  CHECK(read_trial_object(job)->stopped == "interrupted");
  CHECK(distinct_trials({sweep_object("Service", "sweep-trial-1", "1", ""), job})[0].stopped ==
        "interrupted");
  SweepStatus status =
      sweep_of({sweep_result(1, "0.1", TrialState::kSucceeded, {{"loss", "0.3"}})});
  status.num_trials = 3;  // two never created, no reason recorded (its driver was killed)
  CHECK(sweep_phase(status) == JobPhase::kStopped);
  CHECK(format_sweep_status(status).find(
            "OptimizationJob sweep: Stopped (3 trials: 1 succeeded, 2 not created)\n"
            "The search stopped: 2 of 3 trials were never created: ") == 0);
  status.stopped = "the objective metric \"f1\" was not reported";
  std::string text = format_sweep_status(status);
  CHECK(text.find("\nThe search stopped: the objective metric \"f1\" was not reported\n") !=
        std::string::npos);
  CHECK(text.find("best: sweep-trial-1 ") != std::string::npos);  // the best so far
  Json json = sweep_status_json(status, "ml");
  CHECK(json["status"]["conditions"][0]["type"] == "Failed");
  CHECK(json["status"]["conditions"][0]["reason"] == "SearchStopped");
  CHECK(json["status"]["conditions"][0]["message"] ==
        "3 trials: 1 succeeded, 2 not created: the objective metric \"f1\" was not reported");
  status.trials.push_back(sweep_result(2, "0.2", TrialState::kRunning, {}));
  CHECK(sweep_phase(status) == JobPhase::kRunning);  // still running: not stopped yet
  status.trials[1].state = TrialState::kSucceeded;
  status.trials.push_back(sweep_result(3, "0.3", TrialState::kSucceeded, {}));
  CHECK(sweep_phase(status) == JobPhase::kStopped);  // all created, yet it recorded a stop
  status.stopped.clear();
  CHECK(sweep_phase(status) == JobPhase::kComplete);
}

TEST_CASE("a trial's progress lines that are not JSON are named in status") {
  SweepStatus status = sweep_of({sweep_result(1, "0.1", TrialState::kSucceeded, {})});
  status.trials[0].bad_progress.add("{'loss': 0.3}");
  CHECK(format_sweep_status(status).find(
            "\nsweep-trial-1: 1 TRAINJOB_PROGRESS line was not JSON: {'loss': 0.3} (") !=
        std::string::npos);
}

TEST_CASE("-o json: upstream's status.result, conditions once finished, our trials") {
  SweepStatus status = sweep_of({sweep_result(1, "0.1", TrialState::kSucceeded, {{"loss", "0.3"}}),
                                 sweep_result(2, "0.2", TrialState::kRunning, {})});
  Json running = sweep_status_json(status, "ml");
  CHECK(running["kind"] == "OptimizationJob");
  CHECK(running["metadata"]["namespace"] == "ml");
  CHECK_FALSE(running["status"].contains("conditions"));
  CHECK(running["status"]["result"]["trainJobName"] == "sweep-trial-1");
  CHECK(running["status"]["result"]["parameters"][0] == Json{{"name", "lr"}, {"value", "0.1"}});
  CHECK(running["status"]["trials"][1]["state"] == "Running");
  status.trials[1].state = TrialState::kFailed;
  status.completion_time = "2026-01-01T00:09:00Z";
  Json done = sweep_status_json(status, "ml");
  CHECK(done["status"]["conditions"][0]["type"] == "Complete");
  CHECK(done["status"]["conditions"][0]["lastTransitionTime"] == "2026-01-01T00:09:00Z");
  status.trials[0].metrics.clear();
  CHECK_FALSE(sweep_status_json(status, "ml")["status"].contains("result"));
}

TEST_CASE("status and delete take optimizationjob as a TYPE, the others do not") {
  std::string error;
  std::optional<TrainJobTarget> target =
      parse_trainjob_target({"optimizationjobs.v1alpha1.trainer.kubeflow.org", "s"}, &error, true);
  REQUIRE(target);
  CHECK(target->kind == &optimization_job_kind());
  CHECK(parse_trainjob_target({"OptimizationJob/s"}, &error, true)->name == "s");
  CHECK_FALSE(parse_trainjob_target({"optimizationjob/s"}, &error));
  CHECK(error.find("it accepts trainjob,") != std::string::npos);
  CHECK(error.find("optimizationjob (") == std::string::npos);
}

namespace {

/// A client over `transport` that answers trial_metrics' lists of one Job and one pod first.
struct SweepLogFixture {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  KubeClient client{sweep_config(), &transport, &env, &clock};

  static RestConfig sweep_config() {
    RestConfig config;
    config.server = "https://api.example:6443";
    return config;
  }
  SweepLogFixture() {
    Json job = Json::parse(R"({"metadata": {"name": "sweep-trial-1-node-0", "labels":
      {"jobset.sigs.k8s.io/replicatedjob-name": "node",
       "trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}},
      "spec": {"parallelism": 1}, "status": {"succeeded": 1, "conditions": [{"type":
      "Complete", "status": "True"}]}})");
    Json pod = Json::parse(R"({"metadata": {"name": "sweep-trial-1-node-0-0-abcde", "labels":
      {"jobset.sigs.k8s.io/replicatedjob-name": "node", "batch.kubernetes.io/job-name":
      "sweep-trial-1-node-0"}, "annotations": {"batch.kubernetes.io/job-completion-index":
      "0"}}, "spec": {"containers": [{"name": "node"}]}, "status": {"phase": "Succeeded"}})");
    transport.responses.push_back(
        FakeTransport::response(200, {}, Json{{"items", Json::array({job})}}.dump()));
    transport.responses.push_back(
        FakeTransport::response(200, {}, Json{{"items", Json::array({pod})}}.dump()));
  }
};

}  // namespace

TEST_CASE("a trial's metrics: every progress line of rank 0's log, merged in order") {
  SweepLogFixture fixture;
  fixture.transport.responses.push_back(FakeTransport::response(
      200, {},
      "TRAINJOB_PROGRESS {\"epoch\": 1, \"loss\": 0.9, \"accuracy\": 0.5}\n"
      "noise\n"
      "[rank 0] TRAINJOB_PROGRESS {\"step\": 9, \"loss\": 0.4}\n"
      "TRAINJOB_PROGRESS {\"metrics\": [{\"name\": \"f1\", \"value\": \"0.7\"}]}"));
  NamedValues metrics = trial_metrics(&fixture.client, "ml", "sweep-trial-1");
  CHECK(metrics == NamedValues{{"loss", "0.4"}, {"accuracy", "0.5"}, {"f1", "0.7"}});
  REQUIRE(fixture.transport.requests.size() == 3);
  CHECK(fixture.transport.requests[2].url.find(
            "/api/v1/namespaces/ml/pods/sweep-trial-1-node-0-0-abcde/"
            "log?container=node&tailLines=5000&limitBytes=8388608") != std::string::npos);
}

TEST_CASE("a tail cut at its byte limit: the newest lines are read again, their values last") {
  SweepLogFixture fixture;
  std::string big = "TRAINJOB_PROGRESS {\"loss\": 0.9, \"accuracy\": 0.5}\n";
  big.resize(kTrialMetricsLimitBytes, 'x');
  fixture.transport.responses.push_back(FakeTransport::response(200, {}, big));
  fixture.transport.responses.push_back(
      FakeTransport::response(200, {}, "TRAINJOB_PROGRESS {\"loss\": 0.1}\n"));
  NamedValues metrics = trial_metrics(&fixture.client, "ml", "sweep-trial-1");
  CHECK(metrics == NamedValues{{"loss", "0.1"}, {"accuracy", "0.5"}});
  REQUIRE(fixture.transport.requests.size() == 4);
  CHECK(fixture.transport.requests[3].url.find("&tailLines=200&") != std::string::npos);
}

TEST_CASE("a trial without Jobs reports no metrics") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  RestConfig config;
  config.server = "https://api.example:6443";
  KubeClient client(config, &transport, &env, &clock);
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  CHECK(trial_metrics(&client, "ml", "sweep-trial-9").empty());
  CHECK(transport.requests.size() == 1);
}
