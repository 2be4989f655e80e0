#include "legacy/legacy_job.h"

#include <algorithm>
#include <cctype>

#include "k8s/pod_spec.h"
#include "load/field_path.h"
#include "model/field.h"
#include "model/job_name.h"
#include "util/text.h"

namespace trainjob {
namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string joined_types(const LegacyKind& kind) {
  std::string out;
  for (std::string_view type : kind.replica_types)
    out += (out.empty() ? "" : ", ") + std::string(type);
  return out;
}

/// The replica type a key names: spelt exactly, or in any case for a kind that folds it;
/// null for none.
const std::string_view* replica_type_of(const LegacyKind& kind, std::string_view key) {
  for (const std::string_view& type : kind.replica_types) {
    if (type == key || (kind.folds_replica_case && same_ignoring_case(type, key))) return &type;
  }
  return nullptr;
}

/// The error for a key that names no replica type of the kind: the key in another case
/// gets the spelling to write, as the webhook refuses it (field.NotSupported).
void report_unknown_type(const LegacyKind& kind, const FieldReader& reader, const std::string& key,
                         const std::string& path) {
  for (std::string_view type : kind.replica_types) {
    if (!same_ignoring_case(type, key)) continue;
    reader.key_error(path, "unsupported replica type \"" + key + "\": the " + kind.kind +
                               " webhook matches replica types exactly (supported: " +
                               joined_types(kind) + "); write the key as " + std::string(type));
    return;
  }
  reader.key_error(path, "unknown replica type \"" + key + "\" of a " + kind.kind +
                             ": expected one of " + joined_types(kind));
}

/// Appends `{name: port_name, containerPort: port}` to the default container (or the first
/// one) unless it already declares a port of that name, as the operator's defaulting does.
void default_port(const LegacyKind& kind, Json* pod_template) {
  Json* containers = nullptr;
  if (pod_template->is_object() && (*pod_template)["spec"].is_object()) {
    Json& list = (*pod_template)["spec"]["containers"];
    if (list.is_array() && !list.empty()) containers = &list;
  }
  if (containers == nullptr) return;
  Json* target = find_container(&(*pod_template)["spec"], kind.default_container);
  if (target == nullptr) target = &(*containers)[0];
  if (!target->is_object()) return;
  Json& ports = (*target)["ports"];
  if (ports.is_null()) ports = Json::array();
  if (!ports.is_array()) return;
  for (const Json& port : ports) {
    if (string_member_ref(port, "name") == kind.port_name) return;
  }
  ports.push_back(Json{{"name", kind.port_name}, {"containerPort", kind.port}});
}

bool read_replica(const LegacyKind& kind, const FieldReader& reader, const std::string& key,
                  const Field& spec, LegacyReplica* out) {
  out->path = spec.path();
  if (!reader.is_object(spec)) return false;
  if (Field replicas = spec["replicas"]) {
    std::optional<int64_t> value = reader.integer(replicas);
    if (!value) return false;
    if (*value < 0) {
      reader.error(replicas.path(),
                   "expected replicas of 0 or more, found " + std::to_string(*value));
      return false;
    }
    out->replicas = *value;
    out->replicas_set = true;
  }
  out->restart_policy = kind.default_restart_policy;
  if (Field policy = spec["restartPolicy"]) {
    std::optional<std::string> value = reader.string(policy);
    if (!value) return false;
    if (*value != "Always" && *value != "OnFailure" && *value != "Never" && *value != "ExitCode") {
      reader.error(policy.path(),
                   "expected restartPolicy Always, OnFailure, Never or ExitCode, "
                   "found \"" +
                       *value + "\"");
      return false;
    }
    if (!value->empty()) out->restart_policy = *value;
  }
  Field pod_template = spec["template"];
  if (!pod_template) {
    reader.error(out->path, "replica type " + key + " needs a pod template (template)");
    return false;
  }
  if (!reader.is_object(pod_template)) return false;
  out->pod_template = *pod_template.value;
  default_port(kind, &out->pod_template);
  return true;
}

bool read_replicas(const LegacyKind& kind, const FieldReader& reader, LegacyJob* job) {
  Field specs = reader.root()["spec"][kind.replica_specs_field];
  if (!specs) {
    reader.error(field_child("spec", kind.replica_specs_field),
                 std::string("a ") + kind.kind + " needs " + kind.replica_specs_field +
                     " with at least one of " + joined_types(kind));
    return false;
  }
  if (!reader.is_object(specs)) return false;
  bool ok = true;
  std::vector<LegacyReplica> found(kind.replica_types.size());
  std::vector<bool> seen(kind.replica_types.size(), false);
  for (const auto& entry : specs.value->items()) {
    Field spec = specs[entry.key()];
    const std::string_view* type = replica_type_of(kind, entry.key());
    if (type == nullptr) {
      report_unknown_type(kind, reader, entry.key(), spec.path());
      ok = false;
      continue;
    }
    size_t slot = static_cast<size_t>(type - kind.replica_types.data());
    if (seen[slot]) {
      reader.key_error(spec.path(), "replica type " + std::string(*type) +
                                        " is given twice (keys are compared ignoring case)");
      ok = false;
      continue;
    }
    seen[slot] = true;
    found[slot].type = std::string(*type);
    found[slot].lower = ascii_lower(*type);
    ok = read_replica(kind, reader, entry.key(), spec, &found[slot]) && ok;
  }
  for (size_t i = 0; i < found.size(); ++i) {
    if (seen[i]) job->replicas.push_back(std::move(found[i]));
  }
  if (ok && job->replicas.empty()) {
    reader.error(specs.path(),
                 std::string("expected at least one replica type of ") + joined_types(kind));
    return false;
  }
  return ok;
}

/// PyTorch's defaulting of nprocPerNode and of the elastic replica bounds.
void default_pytorch(LegacyJob* job) {
  const Json& elastic = json_member(job->spec, "elasticPolicy");
  bool deprecated_nproc = !json_member(elastic, "nProcPerNode").is_null();
  const Json& nproc = json_member(job->spec, "nprocPerNode");
  if (nproc.is_string()) {
    job->nproc_per_node = nproc.get<std::string>();
  } else if (!deprecated_nproc) {
    job->nproc_per_node = "auto";
  }
  if (!elastic.is_object()) return;
  job->elastic_policy = elastic;
  Json& min = job->elastic_policy["minReplicas"];
  Json& max = job->elastic_policy["maxReplicas"];
  if (min.is_null() && max.is_null()) {
    const LegacyReplica* worker = job->replica("Worker");
    int64_t replicas = worker != nullptr ? worker->replicas : 0;
    min = replicas;
    max = replicas;
  } else if (min.is_null()) {
    min = max;
  } else if (max.is_null()) {
    max = min;
  }
}

}  // namespace

const LegacyReplica* LegacyJob::replica(std::string_view type) const {
  for (const LegacyReplica& replica : replicas) {
    if (replica.type == type) return &replica;
  }
  return nullptr;
}

int64_t LegacyJob::total_replicas() const {
  int64_t total = 0;
  for (const LegacyReplica& replica : replicas)
    total += replica.replicas;
  return total;
}

std::string LegacyJob::dns_namespace() const {
  return name_space.empty() ? "default" : name_space;
}

bool read_legacy_job(const Document& document, const std::string& default_namespace, LegacyJob* job,
                     Diagnostics* diagnostics) {
  job->kind = find_legacy_kind(document.api_version(), document.kind());
  job->document = &document;
  if (job->kind == nullptr) return false;
  FieldReader reader(document, diagnostics);
  Field metadata = reader.root()["metadata"];
  std::optional<std::string> name = read_job_name(reader, "expected the job's name");
  if (!name) return false;
  job->name = *name;
  job->name_space = default_namespace;
  if (Field name_space = metadata["namespace"]) {
    std::optional<std::string> value = reader.string(name_space);
    if (!value) return false;
    job->name_space = *value;
  }
  Field spec = reader.root()["spec"];
  if (!spec) {
    reader.error("spec", std::string("a ") + job->kind->kind + " needs a spec");
    return false;
  }
  if (!reader.is_object(spec)) return false;
  job->spec = *spec.value;
  if (!read_replicas(*job->kind, reader, job)) return false;
  job->run_policy = json_member(job->spec, "runPolicy");
  if (!job->run_policy.is_object()) job->run_policy = Json::object();
  if (string_member_ref(job->run_policy, "cleanPodPolicy").empty())
    job->run_policy["cleanPodPolicy"] = "None";
  if (job->kind == &kPyTorchJobKind) default_pytorch(job);
  return true;
}

void check_master_replicas_one(const LegacyJob& job, const LegacyReplica& master,
                               const FieldReader& reader) {
  if (!master.replicas_set) {
    reader.key_error(master.path, std::string("expected replicas: 1 in the Master: the ") +
                                      job.kind->kind +
                                      " webhook refuses a Master that does not state its "
                                      "replicas (it checks them before defaulting); add "
                                      "replicas: 1");
  } else if (master.replicas != 1) {
    reader.error(master.path + ".replicas", "expected exactly 1 Master replica, found " +
                                                std::to_string(master.replicas) +
                                                ": set replicas: 1 (more ranks go in the Worker)");
  }
}

void state_baked_namespace(LegacyJob* job) {
  job->name_space = job->dns_namespace();
}

const Json* legacy_default_container(const Json& pod_template, std::string_view name) {
  const Json& pod_spec = json_member(pod_template, "spec");
  const Json& containers = json_member(pod_spec, "containers");
  if (!containers.is_array() || containers.empty()) return nullptr;
  const Json* named = find_container(pod_spec, name);
  return named != nullptr ? named : &containers[0];
}

int64_t legacy_port(const LegacyReplica& replica, std::string_view container,
                    std::string_view port_name, int64_t fallback) {
  const Json* named = find_container(json_member(replica.pod_template, "spec"), container);
  if (named == nullptr) return fallback;
  const Json& ports = json_member(*named, "ports");
  if (!ports.is_array()) return fallback;
  for (const Json& port : ports) {
    const Json& number = json_member(port, "containerPort");
    if (string_member_ref(port, "name") == port_name && number.is_number_integer())
      return number.get<int64_t>();
  }
  return fallback;
}

Json legacy_env(const std::string& name, const std::string& value) {
  return Json{{"name", name}, {"value", value}};
}

void legacy_append_env(Json* container, const Json& env) {
  Json kept = Json::array();
  const Json& existing = json_member(*container, "env");
  if (existing.is_array()) {
    for (const Json& var : existing) {
      bool replaced = false;
      for (const Json& added : env)
        replaced |= string_member_ref(var, "name") == string_member_ref(added, "name");
      if (!replaced) kept.push_back(var);
    }
  }
  for (const Json& var : env)
    kept.push_back(var);
  if (!kept.empty()) (*container)["env"] = std::move(kept);
}

}  // namespace trainjob
