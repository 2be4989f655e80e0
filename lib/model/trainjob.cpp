#include "model/trainjob.h"

#include <algorithm>
#include <utility>

#include "model/job_name.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The spec fields that exist only in some releases, and so narrow down the dialect.
struct DialectMarker {
  const char* field;
  Dialect first;
  Dialect last;
  const char* releases;  ///< for messages
};
constexpr DialectMarker kDialectMarkers[] = {
    {"podSpecOverrides", Dialect::kV2_0, Dialect::kV2_0, "v2.0"},
    {"podTemplateOverrides", Dialect::kV2_1, Dialect::kV2_1, "v2.1"},
    {"labels", Dialect::kV2_0, Dialect::kV2_1, "v2.0-v2.1"},
    {"annotations", Dialect::kV2_0, Dialect::kV2_1, "v2.0-v2.1"},
    {"runtimePatches", Dialect::kV2_2, kDefaultDialect, "v2.2+"},
    {"activeDeadlineSeconds", Dialect::kV2_2, kDefaultDialect, "v2.2+"},
};

/// True when the TrainJob holds a value only Trainer v2.0-v2.1 accept: a string
/// `numProcPerNode` (auto, cpu, gpu; v2.2 made it an integer).
bool has_v21_only_value(const Field& spec) {
  Field num_proc = spec["trainer"]["numProcPerNode"];
  return num_proc && num_proc.value->is_string();
}

/// Intersects the releases each used field exists in, and takes the newest of what is
/// left. A value only older releases accept narrows it further, unless a field or
/// --trainer-version already ruled those releases out: then that release's own checks
/// say what is wrong with the value.
std::optional<Dialect> detect_dialect(const FieldReader& reader, const Field& spec,
                                      std::optional<Dialect> forced) {
  Dialect first = forced.value_or(Dialect::kV2_0);
  Dialect last = forced.value_or(kDefaultDialect);
  // What narrowed the releases first, named only if another field contradicts it.
  Field deciding_field;
  const DialectMarker* deciding_marker = nullptr;
  for (const DialectMarker& marker : kDialectMarkers) {
    Field field = spec[marker.field];
    if (!field) continue;
    if (marker.last < first || marker.first > last) {
      std::string decided_by =
          forced ? "--trainer-version " + std::string(dialect_info(*forced).version)
                 : deciding_field.path() + " (Trainer " + deciding_marker->releases + ")";
      reader.error(field.path(), std::string("a Trainer ") + marker.releases +
                                     " field, which cannot be used together with " + decided_by);
      return std::nullopt;
    }
    first = std::max(first, marker.first);
    last = std::min(last, marker.last);
    if (deciding_marker == nullptr) {
      deciding_field = field;
      deciding_marker = &marker;
    }
  }
  if (!forced && first <= Dialect::kV2_1 && has_v21_only_value(spec)) {
    return std::min(last, Dialect::kV2_1);
  }
  return last;
}

Json string_map(const FieldReader& reader, const Field& field) {
  Json out = Json::object();
  if (!reader.is_object(field)) return out;
  for (const auto& entry : field.value->items()) {
    Field value = field[entry.key()];
    if (reader.string(value)) out[entry.key()] = entry.value();
  }
  return out;
}

std::vector<Field> target_jobs(const FieldReader& reader, const Field& list) {
  std::vector<Field> out;
  if (!reader.is_array(list)) {
    if (!list) reader.error(list.path(), "required: the replicated jobs this override patches");
    return out;
  }
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field name = list.at(i)["name"];
    if (!reader.is_object(list.at(i))) continue;
    if (!name)
      reader.error(name.path(), "required: the name of a replicated job of the runtime");
    else if (reader.string(name))
      out.push_back(name);
  }
  return out;
}

void read_v20_overrides(const FieldReader& reader, const Field& list, TrainJob* job) {
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field item = list.at(i);
    if (!reader.is_object(item)) continue;
    // v2.0 puts the PodSpec fields beside targetJobs; the patch reader skips targetJobs.
    job->overrides.push_back({target_jobs(reader, item["targetJobs"]), {}, {}, item});
  }
}

void read_v21_overrides(const FieldReader& reader, const Field& list, TrainJob* job) {
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field item = list.at(i);
    if (!reader.is_object(item)) continue;
    job->overrides.push_back(
        {target_jobs(reader, item["targetJobs"]), {}, item["metadata"], item["spec"]});
  }
}

void merge_metadata(const FieldReader& reader, const Field& metadata, TrainJob* job) {
  if (!reader.is_object(metadata)) return;
  job->jobset_labels.update(string_map(reader, metadata["labels"]));
  job->jobset_annotations.update(string_map(reader, metadata["annotations"]));
}

void read_runtime_patches(const FieldReader& reader, const Field& list, TrainJob* job) {
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field template_field = list.at(i)["trainingRuntimeSpec"]["template"];
    if (!reader.is_object(list.at(i))) continue;
    merge_metadata(reader, template_field["metadata"], job);
    Field jobs = template_field["spec"]["replicatedJobs"];
    if (!reader.is_array(jobs)) continue;
    for (size_t j = 0; j < jobs.value->size(); ++j) {
      Field job_template = jobs.at(j)["template"];
      Field pod_template = job_template["spec"]["template"];
      job->overrides.push_back({{jobs.at(j)["name"]},
                                job_template["metadata"],
                                pod_template["metadata"],
                                pod_template["spec"]});
    }
  }
}

void read_overrides(const FieldReader& reader, const Field& spec, TrainJob* job) {
  const DialectInfo& info = dialect_info(job->dialect);
  Field list = spec[info.overrides_field];
  if (!reader.is_array(list)) return;
  switch (job->dialect) {
    case Dialect::kV2_0:
      read_v20_overrides(reader, list, job);
      break;
    case Dialect::kV2_1:
      read_v21_overrides(reader, list, job);
      break;
    default:
      read_runtime_patches(reader, list, job);
  }
}

/// Only these controllers may own a TrainJob (the Trainer's CRD rule).
constexpr const char* kManagers[] = {kTrainJobControllerName, kMultiKueueControllerName};

bool check_managed_by(const FieldReader& reader, const Field& field) {
  if (!field) return true;
  std::optional<std::string> value = reader.string(field);
  if (!value) return false;
  for (const char* manager : kManagers) {
    if (*value == manager) return true;
  }
  reader.error(field.path(), "expected " + std::string(kManagers[0]) + " or " + kManagers[1] +
                                 ", found \"" + *value + "\"");
  return false;
}

bool read_runtime_ref(const FieldReader& reader, const Field& ref, TrainJob* job) {
  if (!ref) {
    reader.error(ref.path(), "required: the runtime to compile against ({name: ..., kind: ...})");
    return false;
  }
  if (!reader.is_object(ref)) return false;
  job->runtime_name = ref["name"];
  if (!reader.string(job->runtime_name)) {
    if (!job->runtime_name) reader.error(job->runtime_name.path(), "required: the runtime's name");
    return false;
  }
  job->runtime_kind = reader.string(ref["kind"]).value_or(kClusterTrainingRuntime);
  std::string group = reader.string(ref["apiGroup"]).value_or(kTrainerApiGroup);
  bool known_kind =
      job->runtime_kind == kClusterTrainingRuntime || job->runtime_kind == kTrainingRuntime;
  if (group != kTrainerApiGroup || !known_kind) {
    reader.error(ref.path(), "unsupported runtime: " + job->runtime_kind + "." + group +
                                 " (expected ClusterTrainingRuntime or TrainingRuntime of "
                                 "trainer.kubeflow.org)");
    return false;
  }
  return true;
}

}  // namespace

std::optional<Dialect> trainjob_dialect(const Document& trainjob, std::optional<Dialect> forced) {
  Diagnostics quiet;
  FieldReader reader(trainjob, &quiet);
  return detect_dialect(reader, reader.root()["spec"], forced);
}

std::optional<TrainJob> read_trainjob(const FieldReader& reader, std::optional<Dialect> forced,
                                      const std::string& default_namespace) {
  TrainJob job;
  Field metadata = reader.root()["metadata"];
  Field spec = reader.root()["spec"];
  if (!reader.is_object(metadata) || !reader.is_object(spec)) {
    if (!metadata) reader.error("metadata", "required: the TrainJob's name");
    if (!spec) reader.error("spec", "required: at least spec.runtimeRef");
    return std::nullopt;
  }
  std::optional<std::string> name = read_job_name(reader, "required: the TrainJob's name");
  if (!name) return std::nullopt;
  job.name = *name;
  job.name_space = reader.string(metadata["namespace"]).value_or(default_namespace);
  std::optional<Dialect> dialect = detect_dialect(reader, spec, forced);
  bool managed_ok = check_managed_by(reader, spec["managedBy"]);
  if (!dialect || !read_runtime_ref(reader, spec["runtimeRef"], &job) || !managed_ok) {
    return std::nullopt;
  }
  job.dialect = *dialect;
  job.suspend = reader.boolean(spec["suspend"]).value_or(false);
  job.trainer = spec["trainer"];
  job.initializer = spec["initializer"];
  job.active_deadline_seconds = spec["activeDeadlineSeconds"];
  job.jobset_labels = string_map(reader, spec["labels"]);
  job.jobset_annotations = string_map(reader, spec["annotations"]);
  read_overrides(reader, spec, &job);
  if (job.trainer && !reader.is_object(job.trainer)) job.trainer = {};
  if (job.initializer && !reader.is_object(job.initializer)) job.initializer = {};
  return job;
}

}  // namespace trainjob
