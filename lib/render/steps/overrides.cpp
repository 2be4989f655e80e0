#include "render/steps/overrides.h"

#include <algorithm>

#include "k8s/strategic_merge.h"
#include "model/trainjob_steps.h"
#include "render/pod_edit.h"
#include "render/runtime_template.h"
#include "util/suggest.h"

namespace trainjob {
namespace {

std::string job_names(const CompileState& state) {
  std::string out;
  for (const ReplicatedJob& job : state.replicated_jobs)
    out += (out.empty() ? "" : ", ") + job.name;
  return out;
}

/// Reports fields the dialect's override type does not have, as strict validation would.
bool check_fields(const FieldReader& reader, const Field& object,
                  const std::vector<std::string_view>& allowed, std::string_view skip) {
  bool ok = true;
  for (const auto& entry : object.value->items()) {
    const std::string& key = entry.key();
    if (key == skip) continue;
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string hint = closest_match(key, allowed);
    std::string message = "unknown field \"" + key + "\"";
    message += hint.empty() ? "; an override can set: " : "; did you mean \"" + hint + "\"?";
    if (hint.empty()) {
      for (size_t i = 0; i < allowed.size(); ++i)
        message += (i ? ", " : "") + std::string(allowed[i]);
    }
    reader.key_error(object[key].path(), message);
    ok = false;
  }
  return ok;
}

bool check_container(const CompileState& state, const ReplicatedJob& job,
                     const std::string& list_name, const Field& container) {
  const FieldReader& tj = state.trainjob_reader;
  if (!tj.is_object(container)) return false;
  std::optional<std::string> name = tj.string(container["name"]);
  if (!name) {
    if (!container["name"]) tj.error(container["name"].path(), "required: the container's name");
    return false;
  }
  bool ok = check_fields(tj, container, state.dialect.container_fields, "");
  const Json& pod_spec = job.job_template["spec"]["template"]["spec"];
  if (!has_container(pod_spec, list_name, *name)) {
    tj.error(container["name"].path(), "replicated job \"" + job.name + "\" has no " + list_name +
                                           " entry named \"" + *name + "\"");
    ok = false;
  }
  if (container["env"] && is_step_container(*name)) {
    tj.error(container["env"].path(), "env of container \"" + *name +
                                          "\" is set by the Trainer and cannot be overridden; "
                                          "use spec.trainer.env or spec.initializer instead");
    ok = false;
  }
  return ok;
}

bool check_pod_spec(const CompileState& state, const ReplicatedJob& job, const Field& spec) {
  const FieldReader& tj = state.trainjob_reader;
  if (!spec || !spec.value->is_object()) return true;  // checked once per override
  bool ok = true;
  for (const char* list_name : {"containers", "initContainers"}) {
    Field list = spec[list_name];
    if (!list) continue;
    if (!tj.is_array(list)) {
      ok = false;
      continue;
    }
    for (size_t i = 0; i < list.value->size(); ++i) {
      ok = check_container(state, job, list_name, list.at(i)) && ok;
    }
  }
  return ok;
}

void apply_metadata(const Field& metadata, Json* target_metadata) {
  if (!metadata || !metadata.value->is_object()) return;
  for (const char* map : {"labels", "annotations"}) {
    auto it = metadata.value->find(map);
    if (it != metadata.value->end()) merge_string_map(target_metadata, map, *it);
  }
}

void apply_override(const PodOverride& override, ReplicatedJob* job) {
  apply_metadata(override.job_metadata, &job->job_template["metadata"]);
  apply_metadata(override.pod_metadata, &job->pod_template()["metadata"]);
  // A spec that is not a mapping was reported by apply_overrides; there is nothing to merge.
  if (!override.pod_spec || !override.pod_spec.value->is_object()) return;
  Json patch = *override.pod_spec.value;
  patch.erase("targetJobs");  // v2.0 writes the targets beside the PodSpec fields
  strategic_merge(&job->pod_spec(), patch);
}

bool apply_to_target(CompileState* state, const PodOverride& override, const Field& target) {
  const FieldReader& tj = state->trainjob_reader;
  std::optional<std::string> name = tj.string(target);
  if (!name) {
    if (!target) tj.error(target.path(), "required: the name of a replicated job of the runtime");
    return false;
  }
  ReplicatedJob* job = state->find_job(*name);
  if (job == nullptr) {
    tj.error(target.path(), "the runtime has no replicated job named \"" + *name +
                                "\" (it has: " + job_names(*state) + ")");
    return false;
  }
  bool metadata_ok =
      check_metadata(tj, override.job_metadata) && check_metadata(tj, override.pod_metadata);
  if (!check_pod_spec(*state, *job, override.pod_spec) || !metadata_ok) return false;
  apply_override(override, job);
  return true;
}

}  // namespace

bool apply_overrides(CompileState* state) {
  bool ok = true;
  const FieldReader& tj = state->trainjob_reader;
  for (const PodOverride& override : state->trainjob.overrides) {
    // What does not depend on the target is checked once, even when no target exists.
    Field spec = override.pod_spec;
    if (spec && !(tj.is_object(spec) &&
                  check_fields(tj, spec, state->dialect.pod_spec_fields, "targetJobs"))) {
      ok = false;
    }
    ok = check_metadata(tj, override.job_metadata) && ok;
    ok = check_metadata(tj, override.pod_metadata) && ok;
    for (const Field& target : override.target_jobs) {
      ok = apply_to_target(state, override, target) && ok;
    }
  }
  return ok;
}

}  // namespace trainjob
