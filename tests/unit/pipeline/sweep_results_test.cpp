// The sweep's bookkeeping: metrics merged line by line, the best trial by direction, the
// table and the messages the driver and `status` print.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "optimize/trial_results.h"

using trainjob::NamedValues;
using trainjob::SweepObjective;
using trainjob::TrialResult;
using trainjob::TrialState;

namespace {

TrialResult finished_trial(int64_t index, const char* lr, TrialState state, NamedValues metrics) {
  TrialResult trial;
  trial.index = index;
  trial.name = "sweep-trial-" + std::to_string(index);
  trial.values = {{"lr", lr}};
  trial.state = state;
  trial.metrics = std::move(metrics);
  return trial;
}

std::vector<TrialResult> three_trials() {
  return {finished_trial(1, "0.1", TrialState::kSucceeded, {{"loss", "0.5"}, {"accuracy", "0.8"}}),
          finished_trial(2, "0.01", TrialState::kFailed, {{"loss", "0.01"}}),
          finished_trial(3, "0.3", TrialState::kSucceeded, {{"loss", "0.2"}, {"accuracy", "0.7"}})};
}

}  // namespace

TEST_CASE("merge_metrics: a later value replaces an earlier one where it stands") {
  NamedValues metrics = {{"loss", "0.9"}, {"accuracy", "0.5"}};
  trainjob::merge_metrics({{"loss", "0.4"}, {"samplesPerSecond", "100"}}, &metrics);
  CHECK(metrics == NamedValues{{"loss", "0.4"}, {"accuracy", "0.5"}, {"samplesPerSecond", "100"}});
}

TEST_CASE("best_trial: by direction, among the succeeded trials only") {
  std::vector<TrialResult> trials = three_trials();
  CHECK(trainjob::best_trial(trials, SweepObjective{"loss", false}) == 2u);  // not the failed 0.01
  CHECK(trainjob::best_trial(trials, SweepObjective{"accuracy", true}) == 0u);
  CHECK_FALSE(trainjob::best_trial(trials, SweepObjective{"f1", true}));
}

TEST_CASE("best_trial: the earlier trial wins a tie; a value that is no number never wins") {
  std::vector<TrialResult> trials = {
      finished_trial(1, "a", TrialState::kSucceeded, {{"loss", "nan"}}),
      finished_trial(2, "b", TrialState::kSucceeded, {{"loss", "0.3"}}),
      finished_trial(3, "c", TrialState::kSucceeded, {{"loss", "0.3"}}),
      finished_trial(4, "d", TrialState::kSucceeded, {{"loss", "0.1x"}})};
  CHECK(trainjob::best_trial(trials, SweepObjective{"loss", false}) == 1u);
}

TEST_CASE("format_sweep_table: parameters and the objective as columns, - for no value") {
  std::vector<TrialResult> trials = three_trials();
  trials.push_back(finished_trial(4, "1", TrialState::kWaiting, {}));
  CHECK(trainjob::format_sweep_table(trials, SweepObjective{"loss", false}) ==
        "TRIAL           LR     STATE       LOSS\n"
        "sweep-trial-1   0.1    Succeeded   0.5\n"
        "sweep-trial-2   0.01   Failed      0.01\n"
        "sweep-trial-3   0.3    Succeeded   0.2\n"
        "sweep-trial-4   1      Waiting     -\n");
}

TEST_CASE("describe_best and missing_metric_message") {
  std::vector<TrialResult> trials = three_trials();
  CHECK(trainjob::describe_best(trials[2], SweepObjective{"loss", false}) ==
        "best: sweep-trial-3 (lr=0.3): loss 0.2 (Minimize)");
  CHECK(trainjob::missing_metric_message(trials[0], SweepObjective{"f1", true}) ==
        "the objective metric \"f1\" was not reported by sweep-trial-1, which succeeded; it "
        "reported loss, accuracy: set spec.objectives[0].metric to one of them; the search stops");
  TrialResult silent = finished_trial(5, "1", TrialState::kSucceeded, {});
  CHECK(trainjob::missing_metric_message(silent, SweepObjective{"f1", true})
            .find("without reporting any metric") != std::string::npos);
}

TEST_CASE("waiting_trials: names and values of every trial, waiting") {
  trainjob::OptimizationJob job;
  job.name = "grid";
  job.grid = true;
  job.num_trials = 3;
  trainjob::SearchParameter parameter;
  parameter.name = "opt";
  parameter.choices = {"sgd", "adam"};
  job.parameters = {parameter};
  std::vector<TrialResult> trials = trainjob::waiting_trials(job, 0);
  REQUIRE(trials.size() == 2);  // the grid has two points
  CHECK(trials[1].name == "grid-trial-2");
  CHECK(trials[1].values == NamedValues{{"opt", "adam"}});
  CHECK(trials[1].state == TrialState::kWaiting);
}
