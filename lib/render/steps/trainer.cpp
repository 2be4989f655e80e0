#include "render/steps/trainer.h"

#include "k8s/quantity.h"
#include "model/vocabulary.h"
#include "render/pod_edit.h"

namespace trainjob {
namespace {

bool check_string_list(const FieldReader& reader, const Field& list) {
  if (!list) return true;
  if (!reader.is_array(list)) return false;
  bool ok = true;
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field item = list.at(i);
    if (!item.value->is_string()) {
      reader.mismatch(item, "a string");
      ok = false;
    }
  }
  return ok;
}

bool check_num_nodes(const CompileState& state, const Field& field, TrainerSettings* settings) {
  if (!field) return true;
  settings->num_nodes = state.trainjob_reader.integer(field);
  if (!settings->num_nodes) return false;
  if (*settings->num_nodes >= 1) return true;
  // Trainer 2.4's CRD refuses a negative count itself (minimum 0); 0 passes it, yet
  // makes a Job with no pods.
  bool refused_by_api = state.dialect.v2_4_limits && *settings->num_nodes < 0;
  state.trainjob_reader.error(
      field.path(), "expected an integer ≥ 1, found " + std::to_string(*settings->num_nodes) +
                        (refused_by_api ? " (Trainer 2.4's API refuses a negative numNodes)"
                                        : " (a Job with no pods never runs)"));
  return false;
}

bool check_num_proc(const CompileState& state, const Field& field, TrainerSettings* settings) {
  if (!field) return true;
  const Json& value = *field.value;
  bool mpi = static_cast<bool>(state.ml_policy["mpi"]);
  bool flux = static_cast<bool>(state.ml_policy["flux"]);
  bool allow_strings = state.dialect.string_num_proc && !mpi && !flux;
  std::string expected = "an integer ≥ 1 or one of auto, cpu, gpu";
  if (mpi) {
    expected = "an integer ≥ 1 (MPI runtimes take no auto/cpu/gpu)";
  } else if (flux) {
    expected = "an integer ≥ 1 for a Flux TrainJob (no auto/cpu/gpu)";
  } else if (!allow_strings) {
    expected = "an integer ≥ 1 (Trainer v2.2+ has no auto/cpu/gpu; leave it out for auto)";
  }
  bool valid_string =
      value.is_string() && allow_strings && (value == "auto" || value == "cpu" || value == "gpu");
  bool valid_integer = value.is_number_integer() && value.get<int64_t>() >= 1;
  if (value.is_number_integer() && !valid_integer && state.dialect.v2_4_limits) {
    state.trainjob_reader.error(field.path(), "expected an integer ≥ 1, found " + value.dump() +
                                                  " (Trainer 2.4's API refuses it: `self >= 1`)");
    return false;
  }
  if (!valid_string && !valid_integer) {
    state.trainjob_reader.mismatch(field, expected);
    return false;
  }
  settings->num_proc_per_node = value;
  return true;
}

bool check_quantity_map(const FieldReader& reader, const Field& map) {
  if (!map) return true;
  if (!reader.is_object(map)) return false;
  bool ok = true;
  for (const auto& entry : map.value->items()) {
    Field item = map[entry.key()];
    const Json& value = entry.value();
    std::string error = "expected a quantity";
    bool parsed = (value.is_string() && parse_quantity(value.get<std::string>(), &error)) ||
                  (value.is_number() && parse_quantity(value.dump(), &error));
    if (!parsed) {
      reader.error(item.path(), error + ", found " + describe_value(value));
      ok = false;
    }
  }
  return ok;
}

}  // namespace

bool check_env_list(const FieldReader& reader, const Field& list) {
  if (!list) return true;
  if (!reader.is_array(list)) return false;
  bool ok = true;
  for (size_t i = 0; i < list.value->size(); ++i) {
    Field item = list.at(i);
    if (!reader.is_object(item)) {
      ok = false;
      continue;
    }
    if (!item["name"]) reader.error(item["name"].path(), "required: the variable's name");
    ok = item["name"] && reader.string(item["name"]) && ok;
    if (item["value"] && !reader.string(item["value"])) ok = false;
  }
  return ok;
}

bool check_resources(const FieldReader& reader, const Field& resources) {
  if (!resources) return true;
  if (!reader.is_object(resources)) return false;
  bool requests_ok = check_quantity_map(reader, resources["requests"]);
  return check_quantity_map(reader, resources["limits"]) && requests_ok;
}

bool read_trainer(const CompileState& state, TrainerSettings* settings) {
  const FieldReader& tj = state.trainjob_reader;
  Field trainer = state.trainjob.trainer;
  if (!trainer) return true;
  settings->present = true;
  bool ok = !trainer["image"] || tj.string(trainer["image"]);
  ok = check_string_list(tj, trainer["command"]) && ok;
  ok = check_string_list(tj, trainer["args"]) && ok;
  ok = check_env_list(tj, trainer["env"]) && ok;
  ok = check_num_nodes(state, trainer["numNodes"], settings) && ok;
  ok = check_num_proc(state, trainer["numProcPerNode"], settings) && ok;
  ok = check_resources(tj, trainer["resourcesPerNode"]) && ok;
  if (trainer["resourcesPerNode"]) settings->resources = *trainer["resourcesPerNode"].value;
  return ok;
}

namespace {

/// v2.3 merges resourcesPerNode into the runtime's: per key for requests and limits.
void merge_resources(Json* container, const Json& resources) {
  Json& target = (*container)["resources"];
  if (!target.is_object()) target = Json::object();
  for (const auto& section : resources.items()) {
    if (section.value().is_object() && target[section.key()].is_object()) {
      for (const auto& entry : section.value().items())
        target[section.key()][entry.key()] = entry.value();
    } else {
      target[section.key()] = section.value();
    }
  }
}

}  // namespace

void set_trainer_resources(const CompileState& state, const Json& resources, Json* container) {
  if (!resources.is_object()) return;
  // Upstream only replaces when the override says something about requests or limits.
  bool has_values = resources.contains("requests") || resources.contains("limits");
  if (!has_values) return;
  if (state.dialect.merge_resources) {
    merge_resources(container, resources);
  } else {
    (*container)["resources"] = resources;
  }
}

namespace {

/// The trainer job's `node` container with spec.trainer's image, command and args, or null
/// when there is no spec.trainer or no such container.
Json* apply_trainer_command(CompileState* state, const TrainerSettings& settings) {
  ReplicatedJob* job = state->trainer_job();
  if (!settings.present || job == nullptr) return nullptr;
  Json* node = find_container(&job->pod_spec(), kNodeName);
  if (node == nullptr) return nullptr;
  const Json& trainer = *state->trainjob.trainer.value;
  for (const char* field : {"image", "command", "args"}) {
    auto it = trainer.find(field);
    if (it != trainer.end() && !it->is_null()) (*node)[field] = *it;
  }
  return node;
}

}  // namespace

void apply_trainer(CompileState* state, const TrainerSettings& settings) {
  Json* node = apply_trainer_command(state, settings);
  if (node != nullptr) apply_trainer_env_and_resources(*state, settings, node);
}

void apply_trainer_env_and_resources(const CompileState& state, const TrainerSettings& settings,
                                     Json* container) {
  if (!settings.present) return;
  set_trainer_resources(state, settings.resources, container);
  const Json& trainer = *state.trainjob.trainer.value;
  auto env = trainer.find("env");
  if (env != trainer.end() && env->is_array()) {
    for (const Json& var : *env)
      upsert_env(container, var);
  }
}

}  // namespace trainjob
