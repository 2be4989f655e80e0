#include "render/steps/initializers.h"

#include <cctype>

#include "model/trainjob_steps.h"
#include "render/pod_edit.h"
#include "render/steps/trainer.h"

namespace trainjob {
namespace {

/// v2.3+ requires a URI with a scheme (`hf://...`, `s3://...`) when storageUri is set.
bool check_storage_uri(const FieldReader& tj, const Field& uri, Dialect dialect) {
  std::optional<std::string> text = tj.string(uri);
  if (!text) return !uri;
  if (dialect < Dialect::kV2_3 || text->empty()) return true;
  size_t scheme_end = text->find("://");
  bool has_scheme = scheme_end != std::string::npos && scheme_end > 0 &&
                    std::isalpha(static_cast<unsigned char>((*text)[0])) != 0 &&
                    scheme_end + 3 < text->size();
  if (!has_scheme) tj.mismatch(uri, "a URI with a scheme, such as hf://org/dataset");
  return has_scheme;
}

bool check_initializer(const CompileState& state, const Field& config) {
  const FieldReader& tj = state.trainjob_reader;
  if (!tj.is_object(config)) return false;
  bool ok = check_storage_uri(tj, config["storageUri"], state.dialect.dialect);
  ok = check_env_list(tj, config["env"]) && ok;
  Field secret = config["secretRef"];
  if (secret && (!tj.is_object(secret) || !tj.string(secret["name"]))) {
    if (secret.value->is_object() && !secret["name"]) {
      tj.error(secret["name"].path(), "required: the Secret's name");
    }
    ok = false;
  }
  return ok;
}

void configure(const Field& config, Json* container) {
  const Json& value = *config.value;
  if (value.contains("storageUri") && value["storageUri"].is_string()) {
    upsert_env_value(container, "STORAGE_URI", value["storageUri"].get<std::string>());
  }
  if (value.contains("env") && value["env"].is_array()) {
    for (const Json& var : value["env"])
      upsert_env(container, var);
  }
  if (value.contains("secretRef") && value["secretRef"].is_object()) {
    Json& env_from = (*container)["envFrom"];
    if (!env_from.is_array()) env_from = Json::array();
    env_from.push_back(Json{{"secretRef", {{"name", value["secretRef"]["name"]}}}});
  }
}

/// Trainer v2.3 refuses a TrainJob that configures an initializer whose container has no
/// volumeMount named `initializer`: what the initializer downloads reaches the trainer there.
bool check_initializer_mount(const CompileState& state, const Field& config,
                             const TrainJobStep& step, const Json& container) {
  if (state.dialect.dialect < Dialect::kV2_3) return true;
  auto mounts = container.find("volumeMounts");
  if (mounts != container.end() && mounts->is_array()) {
    for (const Json& mount : *mounts) {
      if (mount.is_object() && mount.value("name", "") == "initializer") return true;
    }
  }
  state.trainjob_reader.error(
      config.path(),
      std::string("the runtime's ") + step.ancestor + " container \"" + step.container +
          "\" has no volumeMount named \"initializer\", where the trainer reads what "
          "it downloads: Trainer v2.3+ refuses this TrainJob; add the mount (and "
          "its volume) to the runtime");
  return false;
}

}  // namespace

bool apply_initializers(CompileState* state) {
  const FieldReader& tj = state->trainjob_reader;
  bool ok = true;
  for (const TrainJobStep& step : kTrainJobSteps) {
    if (step.initializer == nullptr) continue;
    Field config = state->trainjob.initializer[step.initializer];
    if (!config) continue;
    if (!check_initializer(*state, config)) {
      ok = false;
      continue;
    }
    ReplicatedJob* job = state->find_ancestor(step.ancestor);
    Json* container = job != nullptr ? find_container(&job->pod_spec(), step.container) : nullptr;
    if (container == nullptr) {
      tj.error(config.path(), std::string("the runtime has no ") + step.ancestor +
                                  " job (a replicated job labelled " + step.ancestor +
                                  " ancestor with a container of that name) to configure");
      ok = false;
      continue;
    }
    if (!check_initializer_mount(*state, config, step, *container)) {
      ok = false;
      continue;
    }
    configure(config, container);
  }
  return ok;
}

}  // namespace trainjob
