#include "render/policy/flux_settings.h"

#include <algorithm>
#include <cstring>

#include "model/vocabulary.h"
#include "render/pod_edit.h"

namespace trainjob {
namespace {

/// Fluxion's queue policies (sched-fluxion-qmanager `queue-policy`).
constexpr const char* kQueuePolicies[] = {"fcfs", "easy", "hybrid", "conservative"};

struct SettingRule {
  const char* name;
  std::string FluxSettings::*member;
  /// Empty when the value is fine, else what was expected. The values are written into
  /// broker.toml and a shell here-document, so each is held to what it can mean.
  std::string (*problem)(const std::string& value);
};

std::string image_problem(const std::string& value) {
  bool ok = !value.empty() && value.size() <= 4096 &&
            std::none_of(value.begin(), value.end(),
                         [](unsigned char c) { return c <= ' ' || c == 0x7f; });
  return ok ? "" : "an image reference (no spaces or control characters)";
}

std::string device_problem(const std::string& value) {
  // An interface name, an address or `*`, as ZeroMQ's tcp:// bind takes.
  bool ok = !value.empty() && value.size() <= 64 &&
            std::all_of(value.begin(), value.end(), [](unsigned char c) {
              return std::isalnum(c) || std::strchr("_.:*-", c) != nullptr;
            });
  return ok ? "" : "a network interface name or address (letters, digits, _ . : * -)";
}

std::string queue_problem(const std::string& value) {
  for (const char* policy : kQueuePolicies) {
    if (value == policy) return "";
  }
  return "one of fcfs, easy, hybrid, conservative";
}

const SettingRule kSettingRules[] = {
    {"FLUX_VIEW_IMAGE", &FluxSettings::view_image, image_problem},
    {"FLUX_NETWORK_DEVICE", &FluxSettings::network_device, device_problem},
    {"FLUX_QUEUE_POLICY", &FluxSettings::queue_policy, queue_problem},
};

const SettingRule* find_rule(const std::string& name) {
  for (const SettingRule& rule : kSettingRules) {
    if (name == rule.name) return &rule;
  }
  return nullptr;
}

bool take_setting(const FieldReader& reader, const Field& where, const SettingRule& rule,
                  const std::string& value, FluxSettings* settings) {
  std::string expected = rule.problem(value);
  if (!expected.empty()) {
    reader.error(where.path(),
                 std::string(rule.name) + ": expected " + expected + ", found \"" + value + "\"");
    return false;
  }
  settings->*rule.member = value;
  return true;
}

/// The runtime's `node` container of the trainer job, as a Field for messages.
Field runtime_node_field(const CompileState& state) {
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (job.ancestor != kTrainerStep) continue;
    Field pod_spec = job.field["template"]["spec"]["template"]["spec"];
    size_t index = pod_spec ? container_index(*pod_spec.value, kNodeName) : kNoContainer;
    if (index != kNoContainer) return pod_spec["containers"].at(index);
  }
  return Field();
}

bool read_runtime_settings(const CompileState& state, const Json& runtime_node,
                           FluxSettings* settings) {
  auto env = runtime_node.find("env");
  if (env == runtime_node.end() || !env->is_array()) return true;
  Field node_field = runtime_node_field(state);
  bool ok = true;
  for (size_t i = 0; i < env->size(); ++i) {
    const Json& var = (*env)[i];
    const SettingRule* rule = find_rule(string_member(var, "name"));
    if (rule == nullptr || !var.contains("value") || !var["value"].is_string()) continue;
    ok = take_setting(state.runtime_reader, node_field["env"].at(i)["value"], *rule,
                      var["value"].get<std::string>(), settings) &&
         ok;
  }
  return ok;
}

bool read_trainer_settings(const CompileState& state, FluxSettings* settings) {
  Field env = state.trainjob.trainer["env"];
  if (!env || !env.value->is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < env.value->size(); ++i) {
    const Json& var = (*env.value)[i];
    const SettingRule* rule = find_rule(string_member(var, "name"));
    if (rule == nullptr) continue;
    // Upstream reads the literal value: an entry with valueFrom sets the setting to "".
    ok = take_setting(state.trainjob_reader, env.at(i)["value"], *rule, string_member(var, "value"),
                      settings) &&
         ok;
  }
  return ok;
}

/// `template.spec.template.spec` of a job, or null; read without inserting anything.
const Json& pod_spec_of(const ReplicatedJob& job) {
  static const Json kNone;
  const Json* at = &job.job_template;
  for (const char* key : {"spec", "template", "spec"}) {
    auto it = at->find(key);
    if (it == at->end()) return kNone;
    at = &*it;
  }
  return *at;
}

/// Index of the init container named flux-installer, or -1.
int64_t installer_index(const Json& pod_spec) {
  auto list = pod_spec.find("initContainers");
  if (list == pod_spec.end() || !list->is_array()) return -1;
  for (size_t i = 0; i < list->size(); ++i) {
    if (string_member((*list)[i], "name") == kFluxInstallerName) return static_cast<int64_t>(i);
  }
  return -1;
}

bool check_node_job(const CompileState& state) {
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (job.name != kNodeName) continue;
    const Json& pod_spec = pod_spec_of(job);
    bool ok = true;
    if (!has_container(pod_spec, "containers", kNodeName)) {
      state.runtime_reader.error(job.path() + ".template.spec.template.spec.containers",
                                 "the Flux policy wraps the command of a container named \"node\"; "
                                 "the node job has none");
      ok = false;
    }
    int64_t installer = installer_index(pod_spec);
    if (installer >= 0) {
      // Upstream's webhook: "InitContainer 'flux-installer' is reserved".
      state.runtime_reader.error(job.path() + ".template.spec.template.spec.initContainers[" +
                                     std::to_string(installer) + "].name",
                                 "the init container name \"flux-installer\" is reserved for the "
                                 "Flux policy, which adds it");
      ok = false;
    }
    return ok;
  }
  state.runtime_reader.error(
      "spec.template.spec.replicatedJobs",
      "the Flux policy needs a replicated job named \"node\": its pods form the "
      "Flux cluster");
  return false;
}

}  // namespace

bool read_flux_settings(const CompileState& state, const Json& runtime_node,
                        FluxSettings* settings) {
  bool ok = read_runtime_settings(state, runtime_node, settings);
  return read_trainer_settings(state, settings) && ok;
}

bool check_flux(const CompileState& state) {
  bool ok = check_node_job(state);
  Json runtime_node;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    if (job.ancestor != kTrainerStep) continue;
    const Json* node = find_container(pod_spec_of(job), kNodeName);
    if (node != nullptr) runtime_node = *node;
    break;
  }
  FluxSettings settings;
  return read_flux_settings(state, runtime_node, &settings) && ok;
}

}  // namespace trainjob
