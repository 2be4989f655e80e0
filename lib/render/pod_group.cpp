#include "render/pod_group.h"

#include <map>

#include "k8s/quantity.h"
#include "model/jobset_labels.h"
#include "model/vocabulary.h"
#include "render/pod_edit.h"
#include "render/steps/trainer.h"

namespace trainjob {
namespace {

using Requests = std::map<std::string, Quantity>;

Requests container_requests(const Json& container) {
  Requests out;
  const Json* requests = nullptr;
  auto resources = container.find("resources");
  if (resources != container.end() && resources->is_object()) {
    auto it = resources->find("requests");
    if (it != resources->end() && it->is_object()) requests = &*it;
  }
  if (requests == nullptr) return out;
  for (const auto& entry : requests->items()) {
    const Json& value = entry.value();
    std::optional<Quantity> quantity =
        parse_quantity(value.is_string() ? value.get<std::string>() : value.dump(), nullptr);
    if (quantity) out[entry.key()] = *quantity;
  }
  return out;
}

Requests sum_containers(const Json& pod_spec, const char* list, bool take_max) {
  Requests total;
  auto containers = pod_spec.find(list);
  if (containers == pod_spec.end() || !containers->is_array()) return total;
  for (const Json& container : *containers) {
    for (const auto& [name, quantity] : container_requests(container)) {
      Quantity& slot = total[name];
      if (!take_max) {
        slot = quantity_add(slot, quantity);
      } else if (quantity.nanos > slot.nanos) {
        slot = quantity;
      }
    }
  }
  return total;
}

Json to_json(const Requests& requests) {
  Json out = Json::object();
  for (const auto& [name, quantity] : requests)
    out[name] = format_quantity(quantity);
  return out;
}

Requests requests_of(const Json& pod_spec) {
  Requests total = sum_containers(pod_spec, "containers", false);
  for (const auto& [name, quantity] : sum_containers(pod_spec, "initContainers", true)) {
    if (quantity.nanos > total[name].nanos) total[name] = quantity;
  }
  return total;
}

/// The trainer job's pod spec as v2.3 sizes it: Trainer v2.3 merges resourcesPerNode into
/// the `node` container before the PodGroup sums requests; v2.1 summed the runtime's alone.
Json sized_pod_spec(CompileState* state, ReplicatedJob* job) {
  Json spec = job->pod_spec();
  Field resources = state->trainjob.trainer["resourcesPerNode"];
  if (!state->dialect.merge_resources || !resources || !state->ml_policy ||
      job != state->trainer_job()) {
    return spec;
  }
  Json* node = find_container(&spec, kNodeName);
  if (node != nullptr) set_trainer_resources(*state, *resources.value, node);
  return spec;
}

/// minMember and minResources over every pod of every job.
void gang_size(CompileState* state, int64_t* members, Json* resources) {
  Requests total;
  *members = 0;
  for (ReplicatedJob& job : state->replicated_jobs) {
    *members += job.count;
    for (const auto& [name, quantity] : requests_of(sized_pod_spec(state, &job))) {
      total[name] = quantity_add(total[name], quantity_scale(quantity, job.count));
    }
  }
  *resources = to_json(total);
}

Json pod_group_object(const CompileState& state, const char* api_version) {
  Json metadata = {{"name", state.trainjob.name},
                   {"labels", ownership_labels(state.trainjob.name)}};
  if (!state.trainjob.name_space.empty()) metadata["namespace"] = state.trainjob.name_space;
  return Json{{"apiVersion", api_version}, {"kind", "PodGroup"}, {"metadata", metadata}};
}

void coscheduling(CompileState* state, const Field& policy, int64_t members, Json resources) {
  state->pod_labels[kCoschedulingPodGroupLabel] = state->trainjob.name;
  Json group = pod_group_object(*state, kSchedulingApiVersion);
  group["spec"] = {{"minMember", members}, {"minResources", std::move(resources)}};
  group["spec"]["scheduleTimeoutSeconds"] =
      state->runtime_reader.integer(policy["scheduleTimeoutSeconds"]).value_or(60);
  state->extra_objects.push_back(std::move(group));
}

void volcano(CompileState* state, const Field& policy, int64_t members, Json resources) {
  state->pod_annotations[kVolcanoGroupNameAnnotation] = state->trainjob.name;
  Json group = pod_group_object(*state, kVolcanoPodGroupApiVersion);
  group["spec"] = {{"minMember", members}, {"minResources", std::move(resources)}};
  Json annotations = state->jobset_metadata.value("annotations", Json::object());
  if (annotations.contains(kVolcanoQueueNameAnnotation)) {
    group["spec"]["queue"] = annotations[kVolcanoQueueNameAnnotation];
  }
  for (ReplicatedJob& job : state->replicated_jobs) {
    const Json& spec = job.pod_spec();
    if (spec.contains("priorityClassName")) {
      group["spec"]["priorityClassName"] = spec["priorityClassName"];
    }
  }
  if (policy["networkTopology"])
    group["spec"]["networkTopology"] = *policy["networkTopology"].value;
  state->extra_objects.push_back(std::move(group));
}

}  // namespace

bool apply_pod_group_policy(CompileState* state) {
  Field policy = state->pod_group_policy;
  if (!policy) return true;
  if (!state->runtime_reader.is_object(policy)) return false;
  int64_t members = 0;
  Json resources;
  gang_size(state, &members, &resources);
  if (policy["coscheduling"]) {
    coscheduling(state, policy["coscheduling"], members, std::move(resources));
  } else if (policy["volcano"]) {
    Json annotations = state->jobset_metadata.value("annotations", Json::object());
    auto queue = annotations.find(kVolcanoQueueNameAnnotation);
    if (queue != annotations.end() && *queue == "") {
      state->trainjob_reader.error("spec",
                                   "the annotation scheduling.volcano.sh/queue-name must name "
                                   "a Volcano queue, found an empty string");
      return false;
    }
    volcano(state, policy["volcano"], members, std::move(resources));
  }
  return true;
}

}  // namespace trainjob
