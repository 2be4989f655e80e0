#include "convert/legacy_pod_template.h"

#include <algorithm>
#include <vector>

#include "k8s/pod_spec.h"
#include "legacy/legacy_kinds.h"
#include "load/field_path.h"
#include "model/jobset_labels.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

void issue(PodTemplateMapping* mapping, const std::string& path, const std::string& message) {
  if (mapping->with_runtime) {
    mapping->needs_runtime = true;
    return;
  }
  mapping->reader->error(path, message +
                                   "; --with-runtime puts the pod template into a "
                                   "TrainingRuntime of the job's own");
}

bool contains(const std::vector<std::string_view>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

/// True when the command starts Python directly rather than through torchrun.
bool plain_python(const Json& container) {
  std::string text;
  for (const char* field : {"command", "args"}) {
    const Json& list = json_member(container, field);
    if (!list.is_array()) continue;
    for (const Json& word : list)
      if (word.is_string()) text += word.get<std::string>() + " ";
  }
  bool python = text.rfind("python", 0) == 0 || text.find(" python") != std::string::npos;
  bool launcher = text.find("torchrun") != std::string::npos ||
                  text.find("torch.distributed.run") != std::string::npos ||
                  text.find("torch.distributed.launch") != std::string::npos;
  return python && !launcher;
}

/// The env the operator gave a script that calls init_process_group("env://") itself,
/// with the values Trainer v2's pods have: the first node's address, torch's port, the
/// completion index as rank.
Json env_for_plain_python(const PodTemplateMapping& mapping) {
  std::string master =
      first_pod_hostname(mapping.job_name, mapping.trainer_job) + "." + mapping.job_name;
  Json rank = {{"name", "RANK"},
               {"valueFrom",
                {{"fieldRef",
                  {{"fieldPath",
                    std::string("metadata.annotations['") + kCompletionIndexAnnotation + "']"}}}}}};
  return Json::array({{{"name", "MASTER_ADDR"}, {"value", master}},
                      {{"name", "MASTER_PORT"}, {"value", "29500"}},
                      {{"name", "WORLD_SIZE"}, {"value", std::to_string(mapping.num_nodes)}},
                      rank});
}

void map_env(const Json& env, const std::string& path, const Json& container,
             PodTemplateMapping* mapping) {
  Json out = Json::array();
  const std::vector<const char*>& owned = mapping->kind->operator_env;
  if (env.is_array()) {
    for (size_t i = 0; i < env.size(); ++i) {
      std::string name = string_member(env[i], "name");
      if (std::find(owned.begin(), owned.end(), name) == owned.end()) {
        out.push_back(env[i]);
        continue;
      }
      mapping->reader->warning(field_index(path, i),
                               name +
                                   " is dropped: the operator wrote its own value over it, "
                                   "and Trainer v2 sets its own variables");
    }
  }
  out.push_back({{"name", "PYTHONUNBUFFERED"}, {"value", "1"}});  // the operator sets it
  if (mapping->kind == &kPyTorchJobKind && plain_python(container)) {
    for (const Json& item : env_for_plain_python(*mapping))
      out.push_back(item);
    mapping->reader->warning(
        path.substr(0, path.rfind('.')),
        "the command starts python without torchrun, and Trainer v2 sets only the PET_* "
        "variables torchrun reads: MASTER_ADDR, MASTER_PORT (29500), WORLD_SIZE and RANK (the "
        "node's index) were added to spec.trainer.env for init_process_group(\"env://\"); "
        "or start the script with torchrun and drop them");
  }
  mapping->trainer["env"] = out;
}

/// The default container: spec.trainer, plus what an override's container entry carries.
Json map_container(const Json& container, const std::string& path, PodTemplateMapping* mapping) {
  const DialectInfo& info = dialect_info(mapping->release);
  Json patch = {{"name", kNodeName}};
  for (const auto& entry : container.items()) {
    const std::string& key = entry.key();
    std::string field = field_child(path, key);
    if (key == "name") continue;
    if (key == "image" || key == "command" || key == "args") {
      mapping->trainer[key] = entry.value();
    } else if (key == "resources") {
      mapping->trainer["resourcesPerNode"] = entry.value();
    } else if (key == "env") {
      continue;  // below, once the command is known
    } else if (key == "ports") {
      mapping->reader->warning(field,
                               "dropped: Trainer v2 gives the node container its own "
                               "port (29500 for torch)");
    } else if (contains(info.container_fields, key)) {
      patch[key] = entry.value();
    } else {
      issue(mapping, field,
            std::string("an override in Trainer ") + info.version + " cannot set a container's " +
                key);
    }
  }
  map_env(json_member(container, "env"), field_child(path, "env"), container, mapping);
  if (const char* note = mapping->kind->trainer_env_note) mapping->reader->warning(path, note);
  return patch;
}

void map_containers(const Json& containers, const std::string& path, Json* override_spec,
                    PodTemplateMapping* mapping) {
  bool found = false;
  for (size_t i = 0; containers.is_array() && i < containers.size(); ++i) {
    std::string item = field_index(path, i);
    if (string_member(containers[i], "name") != mapping->container) {
      issue(mapping, item,
            "container \"" + string_member(containers[i], "name") + "\" beside \"" +
                mapping->container + "\": an override cannot add a container to the runtime");
      continue;
    }
    found = true;
    Json patch = map_container(containers[i], item, mapping);
    if (patch.size() > 1) (*override_spec)["containers"] = Json::array({patch});
  }
  if (!found) {
    mapping->reader->error(path, "expected a container named \"" + mapping->container + "\", the " +
                                     mapping->kind->kind + "'s default container");
  }
}

}  // namespace

void map_pod_template(const Json& pod_template, const std::string& path,
                      PodTemplateMapping* mapping) {
  mapping->pod_template = pod_template;
  const DialectInfo& info = dialect_info(mapping->release);
  Json override_item = Json::object();
  const Json& metadata = json_member(pod_template, "metadata");
  Json pod_metadata = Json::object();
  for (const char* map : {"labels", "annotations"}) {
    if (json_member(metadata, map).is_object()) pod_metadata[map] = metadata[map];
  }
  if (!pod_metadata.empty() && mapping->release == Dialect::kV2_0) {
    issue(mapping, path + ".metadata", "pod labels and annotations cannot be set in Trainer 2.0");
  }
  Json override_spec = Json::object();
  static const Json kEmpty = Json::object();
  const Json& spec = json_member(pod_template, "spec").is_object() ? pod_template["spec"] : kEmpty;
  std::string spec_path = path + ".spec";
  for (const auto& entry : spec.items()) {
    const std::string& key = entry.key();
    std::string field = field_child(spec_path, key);
    if (key == "containers") {
      map_containers(entry.value(), field, &override_spec, mapping);
    } else if (key == "restartPolicy") {
      mapping->reader->warning(field, "ignored: the operator replaces it with the replica's");
    } else if (key == "initContainers") {
      issue(mapping, field, "an override cannot add init containers to the runtime");
    } else if (contains(info.pod_spec_fields, key)) {
      override_spec[key] = entry.value();
    } else {
      issue(mapping, field,
            std::string("an override in Trainer ") + info.version + " cannot set " + key);
    }
  }
  if (mapping->needs_runtime) return;  // the runtime carries the whole template
  if (!pod_metadata.empty()) override_item["metadata"] = pod_metadata;
  if (!override_spec.empty()) override_item["spec"] = override_spec;
  if (override_item.empty()) return;
  override_item["targetJobs"] = Json::array({{{"name", mapping->trainer_job}}});
  // targetJobs first, as people write it.
  Json ordered = {{"targetJobs", override_item["targetJobs"]}};
  for (const char* key : {"metadata", "spec"}) {
    if (override_item.contains(key)) ordered[key] = override_item[key];
  }
  mapping->overrides.push_back(ordered);
}

Json custom_runtime(const Document* stock, const Document& job, const PodTemplateMapping& mapping) {
  Json runtime = stock != nullptr ? stock->value : Json::object();
  runtime["kind"] = kTrainingRuntime;
  Json metadata = {{"name", job.name()}};
  if (!job.name_space().empty()) metadata["namespace"] = job.name_space();
  runtime["metadata"] = metadata;
  Json& jobs = runtime["spec"]["template"]["spec"]["replicatedJobs"];
  if (!jobs.is_array()) return runtime;
  for (Json& replicated : jobs) {
    if (string_member(replicated, "name") != mapping.trainer_job) continue;
    Json& pod = replicated["template"]["spec"]["template"];
    const Json& from = mapping.pod_template;
    for (const char* map : {"labels", "annotations"}) {
      const Json& values = json_member(json_member(from, "metadata"), map);
      if (values.is_object()) pod["metadata"][map].update(values);
    }
    const Json* node = find_container(json_member(pod, "spec"), kNodeName);
    const Json stock_node = node != nullptr ? *node : Json::object();
    Json spec = json_member(from, "spec").is_object() ? from["spec"] : Json::object();
    spec.erase("restartPolicy");  // the runtime's Jobs keep theirs
    Json containers = Json::array();
    for (const Json& container : json_member(spec, "containers")) {
      Json copy = container;
      if (string_member(container, "name") == mapping.container) {
        // spec.trainer carries the env convert kept; the ports and the rest of the env
        // were dropped with a warning, so the runtime must not bring them back.
        Json own = container;
        own.erase("env");
        own.erase("ports");
        copy = stock_node;
        copy.update(own);
        copy["name"] = kNodeName;
      }
      containers.push_back(copy);
    }
    spec["containers"] = containers;
    for (const auto& entry : spec.items())
      pod["spec"][entry.key()] = entry.value();
  }
  return runtime;
}

}  // namespace trainjob
