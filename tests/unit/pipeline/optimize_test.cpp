// The sweep generator is a promise: a seeded OptimizationJob renders the same trials on
// every machine and every release. These values pin it; a change that moves them breaks
// every rendered sweep kept in Git, and must say so in docs/sweeps.md.
#include <string>

#include <doctest/doctest.h>

#include "optimize/optimization_job.h"
#include "optimize/trial_document.h"
#include "optimize/trial_generator.h"

using trainjob::OptimizationJob;
using trainjob::SearchParameter;
using trainjob::SearchSpaceKind;
using trainjob::Trial;

namespace {

SearchParameter range(const char* name, SearchSpaceKind kind, double min, double max,
                      bool integer) {
  SearchParameter parameter;
  parameter.name = name;
  parameter.kind = kind;
  parameter.min = min;
  parameter.max = max;
  parameter.integer = integer;
  return parameter;
}

SearchParameter categorical(const char* name, std::vector<std::string> choices) {
  SearchParameter parameter;
  parameter.name = name;
  parameter.choices = std::move(choices);
  return parameter;
}

std::string values_text(const Trial& trial) {
  std::string out;
  for (const auto& [name, value] : trial.values)
    out += (out.empty() ? "" : " ") + name + "=" + value;
  return out;
}

}  // namespace

TEST_CASE("optimize: xoshiro256** seeded by SplitMix64 gives these first words for seed 42") {
  trainjob::SweepRandom random(42);
  CHECK(random.next() == 1546998764402558742ULL);
  CHECK(random.next() == 6990951692964543102ULL);
  CHECK(random.next() == 12544586762248559009ULL);
  trainjob::SweepRandom unit(42);
  CHECK(unit.unit() == 0.083862971059882163);  // (1546998764402558742 >> 11) / 2^53
}

TEST_CASE("optimize: random trials for seed 42, parameter after parameter") {
  OptimizationJob job;
  job.num_trials = 3;
  job.parameters = {range("lr", SearchSpaceKind::kLogUniform, 1e-4, 1e-1, false),
                    range("batch_size", SearchSpaceKind::kUniform, 16, 128, true),
                    range("momentum", SearchSpaceKind::kUniform, 0.5, 0.99, false),
                    categorical("optimizer", {"sgd", "adam", "adamw"})};
  std::vector<Trial> trials = trainjob::random_trials(job, 42);
  REQUIRE(trials.size() == 3);
  CHECK(trials[0].index == 1);
  CHECK(values_text(trials[0]) ==
        "lr=0.0001784797352989787 batch_size=58 momentum=0.8332212714037883 optimizer=adamw");
  CHECK(values_text(trials[1]) ==
        "lr=0.09449563392715359 batch_size=102 momentum=0.8524367031601786 optimizer=adamw");
  CHECK(values_text(trials[2]) ==
        "lr=0.01923637093645922 batch_size=81 momentum=0.8344019061101344 optimizer=sgd");
}

TEST_CASE("optimize: draws stay in range at the ends of [0, 1)") {
  SearchParameter ints = range("n", SearchSpaceKind::kUniform, 1.5, 4, true);
  CHECK(trainjob::draw_value(ints, 0.0) == "2");
  CHECK(trainjob::draw_value(ints, 0.999999999) == "4");
  SearchParameter floats = range("x", SearchSpaceKind::kUniform, 0, 1, false);
  CHECK(trainjob::draw_value(floats, 0.5) == "0.5");
  SearchParameter log_ints = range("k", SearchSpaceKind::kLogUniform, 1, 1000, true);
  CHECK(trainjob::draw_value(log_ints, 0.0) == "1");
  CHECK(trainjob::draw_value(log_ints, 0.999999999) == "1000");
  CHECK(trainjob::draw_value(categorical("c", {"a", "b"}), 0.999999999) == "b");
}

TEST_CASE("optimize: the grid varies the last parameter fastest and stops at numTrials") {
  OptimizationJob job;
  job.grid = true;
  job.num_trials = 5;
  job.parameters = {categorical("a", {"1", "2"}), categorical("b", {"x", "y", "z"})};
  uint64_t size = 0;
  std::vector<Trial> trials = trainjob::grid_trials(job, &size);
  CHECK(size == 6);
  REQUIRE(trials.size() == 5);
  CHECK(values_text(trials[0]) == "a=1 b=x");
  CHECK(values_text(trials[2]) == "a=1 b=z");
  CHECK(values_text(trials[3]) == "a=2 b=x");
  CHECK(trials[4].index == 5);
  job.num_trials = 100;
  CHECK(trainjob::grid_trials(job, &size).size() == 6);
}

TEST_CASE("optimize: env names, trial names and paths") {
  CHECK(trainjob::optimization_env_name("learning-rate.v2") ==
        "KUBEFLOW_TRAINER_OPT_LEARNING_RATE_V2");
  CHECK(trainjob::trial_name("sweep", 12) == "sweep-trial-12");
  CHECK(trainjob::optimization_path("spec.trainer.env[0]") ==
        "spec.trainJobTemplate.spec.trainer.env[0]");
  CHECK(trainjob::optimization_path("metadata.labels.a") ==
        "spec.trainJobTemplate.metadata.labels.a");
  CHECK(trainjob::optimization_path("metadata.name") == "metadata.name");
  CHECK(trainjob::optimization_path("specs") == "specs");
  Trial trial{2, {{"lr", "0.1"}, {"batch", "8"}}};
  CHECK(trainjob::assignment_json(trial) == R"({"lr":"0.1","batch":"8"})");
}
