#include "optimize/trial_results.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "model/trainer_progress.h"
#include "optimize/trial_document.h"
#include "optimize/trial_generator.h"
#include "util/columns.h"

namespace trainjob {
namespace {

std::string upper_header(const std::string& name) {
  std::string out;
  for (char c : name)
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string joined_names(const NamedValues& values) {
  std::string out;
  for (const auto& [name, value] : values)
    out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

const char* trial_state_name(TrialState state) {
  switch (state) {
    case TrialState::kWaiting:
      return "Waiting";
    case TrialState::kRunning:
      return "Running";
    case TrialState::kSucceeded:
      return "Succeeded";
    case TrialState::kFailed:
      return "Failed";
    case TrialState::kStopped:
      return "Stopped";
  }
  return "Waiting";
}

SweepObjective objective_of(const OptimizationJob& job) {
  return {job.metric, job.direction == "Maximize"};
}

std::vector<TrialResult> waiting_trials(const OptimizationJob& job, uint64_t seed) {
  uint64_t grid_size = 0;
  std::vector<Trial> trials = job.grid ? grid_trials(job, &grid_size) : random_trials(job, seed);
  std::vector<TrialResult> out;
  for (Trial& trial : trials) {
    TrialResult result;
    result.index = trial.index;
    result.name = trial_name(job.name, trial.index);
    result.values = std::move(trial.values);
    out.push_back(std::move(result));
  }
  return out;
}

const std::string* metric_named(const NamedValues& metrics, const std::string& name) {
  for (const auto& [key, value] : metrics)
    if (key == name) return &value;
  return nullptr;
}

void merge_metrics(const NamedValues& reported, NamedValues* metrics) {
  for (const auto& [name, value] : reported) {
    bool replaced = false;
    for (auto& entry : *metrics)
      if (entry.first == name) entry.second = value, replaced = true;
    if (!replaced) metrics->emplace_back(name, value);
  }
}

void merge_progress_metrics(std::string_view text, NamedValues* metrics, BadProgressLines* bad) {
  while (!text.empty()) {
    size_t end = std::min(text.find('\n'), text.size());
    ProgressLine line = classify_progress_line(text.substr(0, end));
    if (line.progress) merge_metrics(line.progress->metrics, metrics);
    if (line.kind == ProgressLine::Kind::kNotJson && bad != nullptr) bad->add(line.body);
    text.remove_prefix(std::min(end + 1, text.size()));
  }
}

std::optional<double> objective_value(const TrialResult& trial, const SweepObjective& objective) {
  const std::string* text = metric_named(trial.metrics, objective.metric);
  if (!text || text->empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text->c_str(), &end);
  if (*end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<size_t> best_trial(const std::vector<TrialResult>& trials,
                                 const SweepObjective& objective) {
  std::optional<size_t> best;
  std::optional<double> best_value;
  for (size_t i = 0; i < trials.size(); ++i) {
    if (trials[i].state != TrialState::kSucceeded) continue;
    std::optional<double> value = objective_value(trials[i], objective);
    if (!value) continue;
    bool better = !best_value || (objective.maximize ? *value > *best_value : *value < *best_value);
    if (better) best = i, best_value = value;
  }
  return best;
}

std::string format_sweep_table(const std::vector<TrialResult>& trials,
                               const SweepObjective& objective) {
  std::vector<std::vector<std::string>> rows(1);
  rows[0].push_back("TRIAL");
  if (!trials.empty())
    for (const auto& [name, value] : trials[0].values)
      rows[0].push_back(upper_header(name));
  rows[0].push_back("STATE");
  rows[0].push_back(upper_header(objective.metric));
  for (const TrialResult& trial : trials) {
    std::vector<std::string> row = {trial.name};
    for (const auto& [name, value] : trial.values)
      row.push_back(value);
    row.push_back(trial_state_name(trial.state));
    const std::string* metric = metric_named(trial.metrics, objective.metric);
    row.push_back(metric && !metric->empty() ? *metric : "-");
    rows.push_back(std::move(row));
  }
  return format_columns(rows);
}

std::string describe_values(const TrialResult& trial) {
  std::string out;
  for (const auto& [name, value] : trial.values) {
    if (!out.empty()) out += ", ";
    out += name;
    out += '=';
    out += value;
  }
  return out;
}

std::string describe_best(const TrialResult& best, const SweepObjective& objective) {
  std::string values = describe_values(best);
  const std::string* metric = metric_named(best.metrics, objective.metric);
  return "best: " + best.name + " (" + values + "): " + objective.metric + " " +
         (metric ? *metric : "-") + " (" + (objective.maximize ? "Maximize" : "Minimize") + ")";
}

std::string missing_metric_message(const TrialResult& trial, const SweepObjective& objective) {
  std::string head = "the objective metric \"" + objective.metric + "\" was not reported by " +
                     trial.name + ", which succeeded";
  std::string bad = trial.bad_progress.describe();
  if (!bad.empty()) bad = "; " + bad;
  if (trial.metrics.empty() && bad.empty())
    return head +
           " without reporting any metric: a program reports them in TRAINJOB_PROGRESS "
           "lines (docs/progress.md); the search stops";
  if (trial.metrics.empty())
    return head + " without reporting any metric" + bad + "; the search stops";
  return head + "; it reported " + joined_names(trial.metrics) +
         ": set spec.objectives[0].metric to one of them" + bad + "; the search stops";
}

}  // namespace trainjob
