#include "optimize/trial_document.h"

#include "load/json_keys.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"
#include "optimize/optimization_job.h"

namespace trainjob {
namespace {

constexpr std::string_view kTemplatePath = "spec.trainJobTemplate";

bool path_under(std::string_view path, std::string_view prefix) {
  return path.substr(0, prefix.size()) == prefix &&
         (path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[');
}

/// The trial's positions: its paths looked up in the OptimizationJob's document.
class TrialSourceMap : public SourceMap {
 public:
  TrialSourceMap(const Json* root, std::shared_ptr<const SourceMap> inner)
      : root_(root), inner_(std::move(inner)) {}
  SourcePos value_pos(const Json&, std::string_view path) const override {
    return inner_ ? inner_->value_pos(*root_, optimization_path(path)) : SourcePos{};
  }
  SourcePos key_pos(const Json&, std::string_view path) const override {
    return inner_ ? inner_->key_pos(*root_, optimization_path(path)) : SourcePos{};
  }

 private:
  const Json* root_;  ///< the OptimizationJob's value, which outlives its trials
  std::shared_ptr<const SourceMap> inner_;
};

/// The template's spec with the trial's values appended to spec.trainer.env (the KEP's
/// §8.2), spec.trainer made when the template has none.
Json trial_spec(const Json& template_spec, const Trial& trial) {
  Json spec = template_spec.is_object() ? template_spec : Json::object();
  Json& trainer = spec["trainer"];
  if (!trainer.is_object()) trainer = Json::object();
  Json& env = trainer["env"];
  if (!env.is_array()) env = Json::array();
  for (const auto& [name, value] : trial.values)
    env.push_back({{"name", optimization_env_name(name)}, {"value", value}});
  return spec;
}

void merge_map(const Json& from, Json* into) {
  if (!from.is_object()) return;
  for (auto it = from.begin(); it != from.end(); ++it)
    (*into)[it.key()] = it.value();
}

}  // namespace

std::string trial_name(const std::string& optimization_job, int64_t index) {
  return optimization_job + kTrialNameInfix + std::to_string(index);
}

std::string optimization_path(std::string_view trial_path) {
  if (path_under(trial_path, "spec") || path_under(trial_path, "metadata.labels") ||
      path_under(trial_path, "metadata.annotations")) {
    return std::string(kTemplatePath) + "." + std::string(trial_path);
  }
  if (trial_path.empty()) return std::string(kTemplatePath);
  return std::string(trial_path);
}

std::string assignment_json(const Trial& trial) {
  Json values = Json::object();
  for (const auto& [name, value] : trial.values)
    values[name] = value;
  return values.dump();
}

Json trial_labels(const std::string& optimization_job, const Trial& trial) {
  return {{kOptimizationJobNameLabel, optimization_job},
          {kTrialIndexLabel, std::to_string(trial.index)}};
}

Document trial_document(const Document& optimization_job, const Trial& trial) {
  const Json& template_value =
      json_member(json_member(optimization_job.value, "spec"), "trainJobTemplate");
  const Json& template_metadata = json_member(template_value, "metadata");
  Json metadata = {{"name", trial_name(optimization_job.name(), trial.index)}};
  if (!optimization_job.name_space().empty()) metadata["namespace"] = optimization_job.name_space();
  Json labels = Json::object();
  merge_map(json_member(template_metadata, "labels"), &labels);
  merge_map(trial_labels(optimization_job.name(), trial), &labels);
  Json annotations = Json::object();
  merge_map(json_member(template_metadata, "annotations"), &annotations);
  annotations[kOptimizationParametersAnnotation] = assignment_json(trial);
  metadata["labels"] = std::move(labels);
  metadata["annotations"] = std::move(annotations);
  Document trial_doc;
  trial_doc.file = optimization_job.file;
  trial_doc.index = optimization_job.index;
  trial_doc.value = {{"apiVersion", kTrainerApiVersion},
                     {"kind", kTrainJob},
                     {"metadata", std::move(metadata)},
                     {"spec", trial_spec(json_member(template_value, "spec"), trial)}};
  trial_doc.source_map =
      std::make_shared<TrialSourceMap>(&optimization_job.value, optimization_job.source_map);
  return trial_doc;
}

void mark_trial_object(const OptimizationJob& job, const Trial& trial, int64_t num_trials,
                       Json* object) {
  Json& metadata = (*object)["metadata"];
  merge_map(trial_labels(job.name, trial), &metadata["labels"]);
  Json& annotations = metadata["annotations"];
  annotations[kOptimizationParametersAnnotation] = assignment_json(trial);
  annotations[kOptimizationObjectiveAnnotation] =
      Json{{"metric", job.metric}, {"direction", job.direction}}.dump();
  if (!job.grid && job.seed) annotations[kOptimizationSeedAnnotation] = std::to_string(*job.seed);
  annotations[kOptimizationTrialsAnnotation] = std::to_string(num_trials);
  sort_keys(&metadata);
}

}  // namespace trainjob
