#include "status/sweep/sweep_trials.h"

#include <algorithm>
#include <cstdlib>

#include "model/vocabulary.h"
#include "optimize/trial_document.h"
#include "status/cluster_output.h"

namespace trainjob {
namespace {

/// The JSON of an annotation, or null when it is missing or no JSON (it comes from the cluster).
Json sweep_annotation_json(const Json& annotations, const char* key) {
  const std::string& text = string_member_ref(annotations, key);
  if (text.empty()) return nullptr;
  Json value = Json::parse(text, nullptr, false);
  return value.is_discarded() ? Json(nullptr) : value;
}

/// {"lr":"0.01",...} in its order; a value that is no string is kept as its JSON text.
NamedValues sweep_assignment(const Json& annotations) {
  Json value = sweep_annotation_json(annotations, kOptimizationParametersAnnotation);
  NamedValues out;
  if (!value.is_object()) return out;
  for (const auto& entry : value.items())
    out.emplace_back(entry.key(), entry.value().is_string() ? entry.value().get<std::string>()
                                                            : entry.value().dump());
  return out;
}

std::optional<SweepObjective> sweep_objective(const Json& annotations) {
  Json value = sweep_annotation_json(annotations, kOptimizationObjectiveAnnotation);
  std::string metric = string_member(value, "metric");
  if (metric.empty()) return std::nullopt;
  return SweepObjective{metric, string_member(value, "direction") == "Maximize"};
}

/// The trial-index label as a number from 1; 0 when it is none.
int64_t sweep_trial_index(const std::string& text) {
  if (text.empty() || text.size() > 9 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return 0;
  return std::atoll(text.c_str());
}

/// Fills what `into` lacks from `from`, a reading of another object of the same trial.
void sweep_fill_missing(const TrialObject& from, TrialObject* into) {
  if (into->index == 0) into->index = from.index;
  if (into->values.empty()) into->values = from.values;
  if (!into->objective) into->objective = from.objective;
  if (into->seed.empty()) into->seed = from.seed;
  if (into->num_trials == 0) into->num_trials = from.num_trials;
  if (into->stopped.empty()) into->stopped = from.stopped;
}

size_t count_in_state(const SweepStatus& status, TrialState state) {
  return std::count_if(status.trials.begin(), status.trials.end(),
                       [&](const TrialResult& trial) { return trial.state == state; });
}

Json named_values_json(const NamedValues& values) {
  Json out = Json::array();
  for (const auto& [name, value] : values)
    out.push_back({{"name", name}, {"value", value}});
  return out;
}

}  // namespace

std::string sweep_counts(const SweepStatus& status) {
  size_t created = status.trials.size();
  size_t total = std::max(created, static_cast<size_t>(status.num_trials));
  std::string out = std::to_string(total) + (total == 1 ? " trial" : " trials");
  std::string parts;
  for (TrialState state :
       {TrialState::kRunning, TrialState::kSucceeded, TrialState::kFailed, TrialState::kStopped}) {
    size_t count = count_in_state(status, state);
    if (count == 0) continue;
    std::string word = trial_state_name(state);
    word[0] = static_cast<char>(word[0] - 'A' + 'a');
    parts += (parts.empty() ? "" : ", ") + std::to_string(count) + " " + word;
  }
  if (total > created)
    parts += (parts.empty() ? "" : ", ") + std::to_string(total - created) + " not created";
  return parts.empty() ? out : out + ": " + parts;
}

std::optional<TrialObject> read_trial_object(const Json& object) {
  const Json& metadata = json_member(object, "metadata");
  const Json& labels = json_member(metadata, "labels");
  const Json& annotations = json_member(metadata, "annotations");
  TrialObject out;
  out.optimization_job = string_member(labels, kOptimizationJobNameLabel);
  if (out.optimization_job.empty()) return std::nullopt;
  out.index = sweep_trial_index(string_member(labels, kTrialIndexLabel));
  out.trial = string_member(labels, kTrainJobNameLabel);
  if (out.trial.empty() && out.index == 0) return std::nullopt;
  if (out.trial.empty()) out.trial = trial_name(out.optimization_job, out.index);
  out.values = sweep_assignment(annotations);
  out.objective = sweep_objective(annotations);
  out.seed = string_member(annotations, kOptimizationSeedAnnotation);
  out.num_trials = sweep_trial_index(string_member(annotations, kOptimizationTrialsAnnotation));
  out.stopped = string_member(annotations, kOptimizationStoppedAnnotation);
  return out;
}

std::vector<TrialObject> distinct_trials(const std::vector<Json>& objects) {
  std::vector<TrialObject> trials;
  for (const Json& object : objects) {
    std::optional<TrialObject> read = read_trial_object(object);
    if (!read) continue;
    auto same = std::find_if(trials.begin(), trials.end(),
                             [&](const TrialObject& t) { return t.trial == read->trial; });
    if (same == trials.end())
      trials.push_back(std::move(*read));
    else
      sweep_fill_missing(*read, &*same);
  }
  std::stable_sort(trials.begin(), trials.end(), [](const TrialObject& a, const TrialObject& b) {
    return a.index != b.index ? a.index < b.index : a.trial < b.trial;
  });
  return trials;
}

TrialState trial_state_of(JobPhase phase) {
  if (phase == JobPhase::kComplete) return TrialState::kSucceeded;
  if (phase == JobPhase::kFailed || phase == JobPhase::kStopped) return TrialState::kFailed;
  return TrialState::kRunning;
}

JobPhase sweep_phase(const SweepStatus& status) {
  if (count_in_state(status, TrialState::kRunning) > 0) return JobPhase::kRunning;
  // A search that ended early is no Complete one, whatever its trials did.
  if (!status.stopped.empty() || status.num_trials > static_cast<int64_t>(status.trials.size()))
    return JobPhase::kStopped;
  return count_in_state(status, TrialState::kSucceeded) > 0 ? JobPhase::kComplete
                                                            : JobPhase::kFailed;
}

std::string sweep_stop_reason(const SweepStatus& status) {
  if (!status.stopped.empty()) return status.stopped;
  int64_t missing = status.num_trials - static_cast<int64_t>(status.trials.size());
  return std::to_string(missing) + " of " + std::to_string(status.num_trials) +
         " trials were never created: the search that starts them (submit --wait) ended before "
         "them and recorded no reason";
}

std::string format_sweep_status(const SweepStatus& status) {
  JobPhase phase = sweep_phase(status);
  std::string out = std::string(kOptimizationJobKind) + " " + status.name + ": " +
                    painted_phase(phase, stdout) + " (" + sweep_counts(status) + ")\n";
  if (phase == JobPhase::kStopped) out += "The search stopped: " + sweep_stop_reason(status) + "\n";
  if (!status.seed.empty()) out += "Random search, seed " + status.seed + "\n";
  out += "\n" + format_sweep_table(status.trials, status.objective) + "\n";
  for (const TrialResult& trial : status.trials)
    if ((trial.state == TrialState::kFailed || trial.state == TrialState::kStopped) &&
        !trial.message.empty())
      out += trial.name + ": " + trial.message + "\n";
  for (const TrialResult& trial : status.trials)
    if (trial.bad_progress.count > 0)
      out += trial.name + ": " + trial.bad_progress.describe() + "\n";
  std::optional<size_t> best = best_trial(status.trials, status.objective);
  if (best) return out + describe_best(status.trials[*best], status.objective) + "\n";
  bool running = phase == JobPhase::kRunning;
  return out +
         (running ? "best: none yet: no trial has succeeded with a value of "
                  : "best: none: no trial succeeded with a value of ") +
         status.objective.metric + "\n";
}

Json sweep_status_json(const SweepStatus& status, const std::string& name_space) {
  Json trials = Json::array();
  for (const TrialResult& trial : status.trials) {
    trials.push_back({{"name", trial.name},
                      {"parameters", named_values_json(trial.values)},
                      {"state", trial_state_name(trial.state)},
                      {"metrics", named_values_json(trial.metrics)}});
    if (!trial.message.empty()) trials.back()["message"] = trial.message;
  }
  Json out = {{"apiVersion", kTrainerApiVersion},
              {"kind", kOptimizationJobKind},
              {"metadata", {{"name", status.name}, {"namespace", name_space}}},
              {"status", Json::object()}};
  Json& body = out["status"];
  JobPhase phase = sweep_phase(status);
  if (phase != JobPhase::kRunning) {
    // Upstream's conditions are Complete and Failed: a search that stopped failed.
    bool stopped = phase == JobPhase::kStopped;
    Json condition = {
        {"type", job_phase_name(stopped ? JobPhase::kFailed : phase)},
        {"status", "True"},
        {"reason", stopped                        ? "SearchStopped"
                   : phase == JobPhase::kComplete ? "TrialsFinished"
                                                  : "NoTrialSucceeded"},
        {"message", sweep_counts(status) + (stopped ? ": " + sweep_stop_reason(status) : "")}};
    if (!status.completion_time.empty()) condition["lastTransitionTime"] = status.completion_time;
    body["conditions"] = Json::array({condition});
  }
  std::optional<size_t> best = best_trial(status.trials, status.objective);
  if (best)
    body["result"] = {{"trainJobName", status.trials[*best].name},
                      {"parameters", named_values_json(status.trials[*best].values)}};
  body["trials"] = std::move(trials);
  return out;
}

}  // namespace trainjob
