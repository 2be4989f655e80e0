// TrainJobs between dialects: every form of override is read into one neutral list (the
// shape of the compiler's PodOverride), then written in the target's form.
#include "convert/convert_dialect.h"

#include <algorithm>
#include <string>
#include <vector>

#include "load/field_path.h"
#include "model/field.h"
#include "model/num_proc.h"
#include "model/trainjob.h"

namespace trainjob {
namespace {

/// One override in no dialect's form, with the paths its parts came from.
struct NeutralOverride {
  Json targets = Json::array();  ///< [{name: ...}]
  Json job_metadata;             ///< null when absent (v2.2+ only)
  Json pod_metadata;             ///< null when absent (v2.1+)
  Json pod_spec;                 ///< null when absent
  std::string job_metadata_path;
  std::string pod_metadata_path;
  std::string pod_spec_path;
};

struct NeutralSpec {
  std::vector<NeutralOverride> overrides;
  Json labels = Json::object();  ///< of the JobSet: spec.labels, or runtimePatches metadata
  Json annotations = Json::object();
  std::string metadata_path;  ///< where the JobSet metadata was written (first place)
};

/// The spec fields that hold overrides or JobSet metadata in some dialect.
constexpr const char* kMovedFields[] = {"podSpecOverrides", "podTemplateOverrides",
                                        "runtimePatches", "labels", "annotations"};

void take_metadata(const Json& metadata, const std::string& path, NeutralSpec* spec) {
  if (!metadata.is_object()) return;
  if (spec->metadata_path.empty()) spec->metadata_path = path;
  for (const char* map : {"labels", "annotations"}) {
    const Json& values = json_member(metadata, map);
    if (values.is_object())
      (std::string(map) == "labels" ? spec->labels : spec->annotations).update(values);
  }
}

void read_v20(const Json& list, NeutralSpec* spec) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_object()) continue;
    NeutralOverride out;
    out.targets = json_member(list[i], "targetJobs");
    Json pod_spec = list[i];
    pod_spec.erase("targetJobs");
    if (!pod_spec.empty()) out.pod_spec = pod_spec;
    out.pod_spec_path = field_index("spec.podSpecOverrides", i);
    spec->overrides.push_back(std::move(out));
  }
}

void read_v21(const Json& list, NeutralSpec* spec) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_object()) continue;
    std::string path = field_index("spec.podTemplateOverrides", i);
    NeutralOverride out;
    out.targets = json_member(list[i], "targetJobs");
    out.pod_metadata = json_member(list[i], "metadata");
    out.pod_metadata_path = path + ".metadata";
    out.pod_spec = json_member(list[i], "spec");
    out.pod_spec_path = path + ".spec";
    spec->overrides.push_back(std::move(out));
  }
}

void read_patches(const Json& list, NeutralSpec* spec) {
  for (size_t i = 0; i < list.size(); ++i) {
    std::string path = field_index("spec.runtimePatches", i) + ".trainingRuntimeSpec.template";
    const Json& runtime_template =
        json_member(json_member(list[i], "trainingRuntimeSpec"), "template");
    take_metadata(json_member(runtime_template, "metadata"), path + ".metadata", spec);
    const Json& jobs = json_member(json_member(runtime_template, "spec"), "replicatedJobs");
    if (!jobs.is_array()) continue;
    for (size_t j = 0; j < jobs.size(); ++j) {
      std::string job_path = field_index(path + ".spec.replicatedJobs", j) + ".template";
      const Json& job_template = json_member(jobs[j], "template");
      const Json& pod_template = json_member(json_member(job_template, "spec"), "template");
      NeutralOverride out;
      out.targets = Json::array({{{"name", json_member(jobs[j], "name")}}});
      out.job_metadata = json_member(job_template, "metadata");
      out.job_metadata_path = job_path + ".metadata";
      out.pod_metadata = json_member(pod_template, "metadata");
      out.pod_metadata_path = job_path + ".spec.template.metadata";
      out.pod_spec = json_member(pod_template, "spec");
      out.pod_spec_path = job_path + ".spec.template.spec";
      spec->overrides.push_back(std::move(out));
    }
  }
}

NeutralSpec read_neutral(const Json& spec, Dialect source) {
  NeutralSpec out;
  const Json& list = json_member(spec, dialect_info(source).overrides_field);
  if (source <= Dialect::kV2_1) {
    Json metadata = Json::object();
    for (const char* map : {"labels", "annotations"}) {
      if (json_member(spec, map).is_object()) metadata[map] = json_member(spec, map);
    }
    take_metadata(metadata, "spec.labels", &out);
  }
  if (!list.is_array()) return out;
  if (source == Dialect::kV2_0) read_v20(list, &out);
  if (source == Dialect::kV2_1) read_v21(list, &out);
  if (source >= Dialect::kV2_2) read_patches(list, &out);
  return out;
}

/// Reports what `release` cannot carry of one override; true when nothing is lost.
bool check_override(const FieldReader& reader, const NeutralOverride& item, Dialect release) {
  const DialectInfo& info = dialect_info(release);
  std::string release_name = std::string("Trainer ") + info.version;
  bool ok = true;
  if (!item.job_metadata.is_null() && release <= Dialect::kV2_1) {
    reader.error(item.job_metadata_path, "labels and annotations of the Jobs cannot be set in " +
                                             release_name + " (runtimePatches came with v2.2)");
    ok = false;
  }
  if (!item.pod_metadata.is_null() && release == Dialect::kV2_0) {
    reader.error(item.pod_metadata_path, "pod labels and annotations cannot be set in " +
                                             release_name +
                                             " (podTemplateOverrides.metadata came with v2.1)");
    ok = false;
  }
  if (!item.pod_spec.is_object()) return ok;
  const auto& fields = info.pod_spec_fields;
  for (const auto& entry : item.pod_spec.items()) {
    std::string path = field_child(item.pod_spec_path, entry.key());
    if (std::find(fields.begin(), fields.end(), entry.key()) == fields.end()) {
      reader.error(path, "an override in " + release_name + " cannot set " + entry.key());
      ok = false;
      continue;
    }
    if (entry.key() != "containers" && entry.key() != "initContainers") continue;
    if (!entry.value().is_array()) continue;
    for (size_t i = 0; i < entry.value().size(); ++i) {
      if (!entry.value()[i].is_object()) continue;
      for (const auto& field : entry.value()[i].items()) {
        const auto& allowed = info.container_fields;
        if (std::find(allowed.begin(), allowed.end(), field.key()) != allowed.end()) continue;
        reader.error(field_child(field_index(path, i), field.key()),
                     "a container override in " + release_name + " cannot set " + field.key());
        ok = false;
      }
    }
  }
  return ok;
}

Json write_v20(const NeutralOverride& item) {
  Json out = Json::object();
  out["targetJobs"] = item.targets;
  if (item.pod_spec.is_object()) {
    for (const auto& entry : item.pod_spec.items())
      out[entry.key()] = entry.value();
  }
  return out;
}

Json write_v21(const NeutralOverride& item) {
  Json out = Json::object();
  out["targetJobs"] = item.targets;
  if (!item.pod_metadata.is_null()) out["metadata"] = item.pod_metadata;
  if (!item.pod_spec.is_null()) out["spec"] = item.pod_spec;
  return out;
}

/// One replicated job entry of a patch per target of the override.
Json write_patch_jobs(const NeutralOverride& item) {
  Json jobs = Json::array();
  if (!item.targets.is_array()) return jobs;
  for (const Json& target : item.targets) {
    Json pod_template = Json::object();
    if (!item.pod_metadata.is_null()) pod_template["metadata"] = item.pod_metadata;
    if (!item.pod_spec.is_null()) pod_template["spec"] = item.pod_spec;
    Json job_template = Json::object();
    if (!item.job_metadata.is_null()) job_template["metadata"] = item.job_metadata;
    job_template["spec"] = {{"template", pod_template}};
    jobs.push_back({{"name", json_member(target, "name")}, {"template", job_template}});
  }
  return jobs;
}

/// runtimePatches: one patch per override, so their order (a later one wins) is kept; the
/// JobSet metadata goes to the first.
Json write_patches(const NeutralSpec& spec) {
  Json patches = Json::array();
  Json metadata = Json::object();
  if (!spec.labels.empty()) metadata["labels"] = spec.labels;
  if (!spec.annotations.empty()) metadata["annotations"] = spec.annotations;
  size_t count = std::max<size_t>(spec.overrides.size(), metadata.empty() ? 0 : 1);
  for (size_t i = 0; i < count; ++i) {
    std::string manager = kConvertPatchManager;
    if (i > 0) manager += "-" + std::to_string(i + 1);
    Json runtime_template = Json::object();
    if (i == 0 && !metadata.empty()) runtime_template["metadata"] = metadata;
    if (i < spec.overrides.size())
      runtime_template["spec"] = {{"replicatedJobs", write_patch_jobs(spec.overrides[i])}};
    patches.push_back(
        {{"manager", manager}, {"trainingRuntimeSpec", {{"template", runtime_template}}}});
  }
  return patches;
}

/// The spec fields that replace kMovedFields in `release`, in order.
Json release_fields(const NeutralSpec& spec, Dialect release) {
  Json out = Json::object();
  if (release >= Dialect::kV2_2) {
    Json patches = write_patches(spec);
    if (!patches.empty()) out["runtimePatches"] = patches;
    return out;
  }
  if (!spec.labels.empty()) out["labels"] = spec.labels;
  if (!spec.annotations.empty()) out["annotations"] = spec.annotations;
  Json list = Json::array();
  for (const NeutralOverride& item : spec.overrides)
    list.push_back(release == Dialect::kV2_0 ? write_v20(item) : write_v21(item));
  if (!list.empty()) out[dialect_info(release).overrides_field] = list;
  return out;
}

bool is_moved(const std::string& key) {
  for (const char* field : kMovedFields) {
    if (key == field) return true;
  }
  return false;
}

/// `spec` with the moved fields replaced by `fields`, where the first of them was.
Json replace_moved(const Json& spec, const Json& fields) {
  Json out = Json::object();
  bool placed = false;
  for (const auto& entry : spec.items()) {
    if (!is_moved(entry.key())) {
      out[entry.key()] = entry.value();
      continue;
    }
    if (placed) continue;
    placed = true;
    for (const auto& field : fields.items())
      out[field.key()] = field.value();
  }
  if (!placed) {
    for (const auto& field : fields.items())
      out[field.key()] = field.value();
  }
  return out;
}

}  // namespace

Json move_overrides(const Json& spec, Dialect source, Dialect release) {
  return replace_moved(spec, release_fields(read_neutral(spec, source), release));
}

void convert_num_proc(const FieldReader& reader, const std::string& path, Dialect release,
                      Json* trainer) {
  if (release <= Dialect::kV2_1 || !trainer->is_object()) return;
  auto it = trainer->find("numProcPerNode");
  if (it == trainer->end() || !it->is_string()) return;
  std::string mode = it->get<std::string>();
  const Json& resources = json_member(*trainer, "resourcesPerNode");
  int64_t gpus = gpu_count(resources);
  if (mode == "auto" || (mode == "cpu" && resources.is_object() && gpus == 0)) {
    trainer->erase(it);  // unset is auto from v2.2 on: a process per GPU, else per CPU
  } else if (mode == "gpu" && gpus > 0) {
    *it = gpus;
  } else if (mode == "cpu" && gpus > 0) {
    *it = std::max<int64_t>(1, cpu_count(resources));
  } else if (mode == "cpu" || mode == "gpu") {
    reader.warning(path, "\"" + mode + "\" has no equivalent in Trainer " +
                             dialect_info(release).version +
                             " without spec.trainer.resourcesPerNode to count from: left out, "
                             "so a process per GPU of the pod, else per CPU");
    trainer->erase(it);
  }
}

Json convert_trainjob_dialect(const Document& trainjob, Dialect release, Diagnostics* diagnostics) {
  FieldReader reader(trainjob, diagnostics);
  std::optional<Dialect> source = trainjob_dialect(trainjob, std::nullopt);
  const Json& spec = json_member(trainjob.value, "spec");
  if (!spec.is_object()) return trainjob.value;  // validate says what is wrong
  if (!source) {
    reader.error("spec",
                 "fields of different Trainer releases; `kubectl trainjob validate` "
                 "names them");
    return trainjob.value;
  }
  Json out = trainjob.value;
  NeutralSpec neutral = read_neutral(spec, *source);
  bool ok = true;
  for (const NeutralOverride& item : neutral.overrides)
    ok = check_override(reader, item, release) && ok;
  if (release <= Dialect::kV2_1 && spec.contains("activeDeadlineSeconds")) {
    reader.error("spec.activeDeadlineSeconds", std::string("cannot be set in Trainer ") +
                                                   dialect_info(release).version +
                                                   " (it came with v2.2)");
    ok = false;
  }
  bool same_form = (*source >= Dialect::kV2_2) == (release >= Dialect::kV2_2) &&
                   (*source >= Dialect::kV2_2 || *source == release);
  if (!same_form && ok) out["spec"] = move_overrides(spec, *source, release);
  if (out["spec"].contains("trainer"))
    convert_num_proc(reader, "spec.trainer.numProcPerNode", release, &out["spec"]["trainer"]);
  bool crosses_merge =
      dialect_info(*source).merge_resources != dialect_info(release).merge_resources;
  if (crosses_merge && json_member(json_member(spec, "trainer"), "resourcesPerNode").is_object()) {
    reader.warning(
        "spec.trainer.resourcesPerNode",
        "Trainer 2.3 and later merge these into the runtime's resources per key, earlier "
        "releases replace the runtime's resources with them");
  }
  return out;
}

}  // namespace trainjob
