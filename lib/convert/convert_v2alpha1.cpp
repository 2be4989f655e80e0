// kubeflow.org/v2alpha1 (training-operator release-1.9, pkg/apis/kubeflow.org/v2alpha1)
// against Trainer 2.0: the TrainJob's datasetConfig and modelConfig.input are 2.0's
// initializer.dataset and initializer.model (storageUri, env, secretRef in both), its
// podSpecOverrides, labels and annotations are 2.0's; the runtimes' mlPolicy and
// podGroupPolicy are 2.0's. What differs is names: the group, the controller, and the
// trainer's job and container, which 2.0 finds by the trainjob-ancestor-step label.
#include "convert/convert_v2alpha1.h"

#include <memory>
#include <string>

#include "convert/convert_dialect.h"
#include "load/field_path.h"
#include "model/field.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The path a field of the migrated TrainJob had in the v2alpha1 one.
std::string v2alpha1_path(std::string_view path) {
  static const std::pair<std::string_view, std::string_view> kMoved[] = {
      {"spec.initializer.dataset", "spec.datasetConfig"},
      {"spec.initializer.model", "spec.modelConfig.input"},
  };
  for (const auto& [now, before] : kMoved) {
    bool inside = path.size() == now.size() || path[now.size()] == '.' || path[now.size()] == '[';
    if (path.substr(0, now.size()) == now && inside)
      return std::string(before) + std::string(path.substr(now.size()));
  }
  return std::string(path);
}

/// Positions in the user's v2alpha1 text for the migrated value, so that what the release
/// conversion reports points at what the user wrote.
class V2alpha1Positions : public SourceMap {
 public:
  V2alpha1Positions(std::shared_ptr<const SourceMap> map, Json root)
      : map_(std::move(map)), root_(std::move(root)) {}
  SourcePos value_pos(const Json& /*migrated*/, std::string_view path) const override {
    return map_->value_pos(root_, v2alpha1_path(path));
  }
  SourcePos key_pos(const Json& /*migrated*/, std::string_view path) const override {
    return map_->key_pos(root_, v2alpha1_path(path));
  }

 private:
  std::shared_ptr<const SourceMap> map_;
  Json root_;
};

/// The member `key` of `parent`, or null when `parent` is no mapping or has no such member:
/// operator[] would add it, and throw on a value of another type.
Json* member_of(Json* parent, const char* key) {
  if (parent == nullptr || !parent->is_object()) return nullptr;
  auto it = parent->find(key);
  return it == parent->end() ? nullptr : &*it;
}

/// `name` of every mapping in the list `items` (targetJobs, containers, dependsOn).
template <typename Visit>
void for_each_name(Json* items, Visit visit) {
  if (items == nullptr || !items->is_array()) return;
  for (size_t i = 0; i < items->size(); ++i) {
    if (Json* name = member_of(&(*items)[i], "name")) visit(name, i);
  }
}

/// v2alpha1's numProcPerNode is a string even for a count ("4"); releases take an integer.
void count_to_integer(Json* value) {
  if (!value->is_string()) return;
  const std::string& text = value->get_ref<const std::string&>();
  if (text.empty() || text.size() > 9) return;
  for (char c : text) {
    if (c < '0' || c > '9') return;
  }
  *value = std::stoll(text);
}

void migrate_num_proc(Json* parent) {
  if (Json* count = member_of(parent, "numProcPerNode")) count_to_integer(count);
}

/// The trainer's job and container as the releases name them.
void rename_step(Json* name, const char* before, const char* now) {
  if (name != nullptr && name->is_string() && *name == before) *name = now;
}

Json migrate_runtime_ref(Json ref) {
  if (ref.is_object() && json_member(ref, "apiGroup") == kV2alpha1ApiGroup)
    ref["apiGroup"] = kTrainerApiGroup;
  return ref;
}

/// datasetConfig and modelConfig.input into `initializer`; modelConfig.output has no
/// counterpart in any release.
void migrate_initializer(const FieldReader& reader, const std::string& key, const Json& value,
                         Json* initializer) {
  if (key == "datasetConfig") {
    (*initializer)["dataset"] = value;
    return;
  }
  if (!value.is_object()) return;
  for (const auto& entry : value.items()) {
    if (entry.key() == "input") {
      (*initializer)["model"] = entry.value();
    } else if (entry.key() == "output") {
      reader.error("spec.modelConfig.output",
                   "the model exporter of kubeflow.org/v2alpha1 has no counterpart in any Trainer "
                   "release: save the model from the trainer's own command (to a volume or a "
                   "storage URI) and remove modelConfig.output");
    } else {  // not v2alpha1's either: kept beside `model`, where validate names it
      (*initializer)[entry.key()] = entry.value();
    }
  }
}

/// One podSpecOverrides entry: targets and container names of the trainer as released.
Json migrate_override(const FieldReader& reader, const std::string& path, Json item) {
  bool trainer = false;
  for_each_name(member_of(&item, "targetJobs"), [&](Json* name, size_t i) {
    trainer = trainer || *name == kV2alpha1TrainerJob;
    rename_step(name, kV2alpha1TrainerJob, kNodeName);
    if (*name != kV2alpha1InitializerJob) return;
    reader.error(field_child(field_index(field_child(path, "targetJobs"), i), "name"),
                 "Trainer releases have no `initializer` job: they run dataset-initializer and "
                 "model-initializer as jobs of their own; target those by name instead");
  });
  if (!trainer) return item;
  for_each_name(member_of(&item, "containers"), [](Json* name, size_t) {
    rename_step(name, kV2alpha1TrainerContainer, kNodeName);
  });
  return item;
}

Json migrate_overrides(const FieldReader& reader, const Json& list) {
  if (!list.is_array()) return list;
  Json out = Json::array();
  for (size_t i = 0; i < list.size(); ++i) {
    std::string path = field_index("spec.podSpecOverrides", i);
    out.push_back(list[i].is_object() ? migrate_override(reader, path, list[i]) : list[i]);
  }
  return out;
}

Json migrate_trainjob_spec(const FieldReader& reader, const Json& spec) {
  Json out = Json::object();
  for (const auto& entry : spec.items()) {
    const std::string& key = entry.key();
    if (key == "runtimeRef" || key == "trainingRuntimeRef") {  // the latter: before 1.9.0
      out["runtimeRef"] = migrate_runtime_ref(entry.value());
    } else if (key == "datasetConfig" || key == "modelConfig") {
      migrate_initializer(reader, key, entry.value(), &out["initializer"]);
    } else if (key == "podSpecOverrides") {
      out[key] = migrate_overrides(reader, entry.value());
    } else if (key == "managedBy" && entry.value() == kV2alpha1ControllerName) {
      out[key] = kTrainJobControllerName;
    } else {
      out[key] = entry.value();
    }
  }
  if (out.contains("trainer")) migrate_num_proc(&out["trainer"]);
  if (out.contains("initializer") && out["initializer"].is_null()) out.erase("initializer");
  return out;
}

/// The trainer's replicated job: named `node`, its container `node`, labelled as the step
/// the releases look for.
void migrate_trainer_job(Json* job) {
  (*job)["name"] = kNodeName;
  Json* job_template = member_of(job, "template");
  if (job_template == nullptr || !job_template->is_object()) return;
  Json metadata = json_member(*job_template, "metadata");
  if (!metadata.is_null() && !metadata.is_object()) return;  // validate says what is wrong
  Json labels = json_member(metadata, "labels");
  if (!labels.is_null() && !labels.is_object()) return;
  labels[kAncestorLabel] = kTrainerStep;
  metadata["labels"] = std::move(labels);
  Json labelled = Json::object();  // metadata first, as the releases' runtimes write it
  labelled["metadata"] = std::move(metadata);
  for (const auto& entry : job_template->items()) {
    if (entry.key() != "metadata") labelled[entry.key()] = entry.value();
  }
  *job_template = std::move(labelled);
  Json* pod_template = member_of(member_of(job_template, "spec"), "template");
  for_each_name(member_of(member_of(pod_template, "spec"), "containers"), [](Json* name, size_t) {
    rename_step(name, kV2alpha1TrainerContainer, kNodeName);
  });
}

/// Names of other jobs that point at the trainer's job: dependsOn and the success policy.
/// v2alpha1 ran both initializers as init containers of one job; the releases run each as a
/// job of its own, found by its label: a different shape that the user should choose.
void report_initializer_job(const FieldReader& reader, size_t index) {
  reader.error(field_child(field_index("spec.template.spec.replicatedJobs", index), "name"),
               "Trainer releases have no `initializer` job: split it into a replicated job "
               "named dataset-initializer and one named model-initializer, each running its "
               "initializer as a container (not an init container) named like the job, its "
               "job template labelled " +
                   std::string(kAncestorLabel) +
                   " with the same name, and make the trainer's job dependsOn them");
}

void rename_job_references(Json* jobset_spec) {
  Json* jobs = member_of(jobset_spec, "replicatedJobs");
  for (size_t i = 0; jobs != nullptr && jobs->is_array() && i < jobs->size(); ++i) {
    for_each_name(member_of(&(*jobs)[i], "dependsOn"),
                  [](Json* name, size_t) { rename_step(name, kV2alpha1TrainerJob, kNodeName); });
  }
  Json* targets = member_of(member_of(jobset_spec, "successPolicy"), "targetReplicatedJobs");
  for (size_t i = 0; targets != nullptr && targets->is_array() && i < targets->size(); ++i)
    rename_step(&(*targets)[i], kV2alpha1TrainerJob, kNodeName);
}

void migrate_jobset_spec(const FieldReader& reader, Json* jobset_spec) {
  Json* jobs = member_of(jobset_spec, "replicatedJobs");
  if (jobs == nullptr || !jobs->is_array()) return;
  rename_job_references(jobset_spec);
  for (size_t i = 0; i < jobs->size(); ++i) {
    Json& job = (*jobs)[i];
    const Json& name = json_member(job, "name");
    if (name == kV2alpha1InitializerJob) {
      report_initializer_job(reader, i);
    } else if (name == kV2alpha1TrainerJob) {
      migrate_trainer_job(&job);
    }
  }
}

Json migrate_runtime(const FieldReader& reader, Json runtime) {
  runtime["apiVersion"] = kTrainerApiVersion;
  Json* spec = member_of(&runtime, "spec");
  migrate_num_proc(member_of(member_of(spec, "mlPolicy"), "torch"));
  migrate_jobset_spec(reader, member_of(member_of(spec, "template"), "spec"));
  return runtime;
}

Json migrate_trainjob(const FieldReader& reader, Json trainjob) {
  trainjob["apiVersion"] = kTrainerApiVersion;
  const Json& spec = json_member(trainjob, "spec");
  if (spec.is_object()) trainjob["spec"] = migrate_trainjob_spec(reader, spec);
  return trainjob;
}

}  // namespace

Json convert_v2alpha1(const Document& document, Dialect release, Diagnostics* diagnostics) {
  FieldReader reader(document, diagnostics);
  int errors_before = diagnostics->error_count();
  bool trainjob = document.kind() == kTrainJob;
  Json migrated =
      trainjob ? migrate_trainjob(reader, document.value) : migrate_runtime(reader, document.value);
  if (diagnostics->error_count() > errors_before) return document.value;
  Document moved;
  moved.file = document.file;
  moved.index = document.index;
  moved.value = std::move(migrated);
  if (document.source_map)
    moved.source_map = std::make_shared<V2alpha1Positions>(document.source_map, document.value);
  return trainjob ? convert_trainjob_dialect(moved, release, diagnostics)
                  : convert_runtime_dialect(moved, release, diagnostics);
}

}  // namespace trainjob
