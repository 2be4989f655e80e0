#include "legacy/mpi_legacy_job.h"

#include <algorithm>
#include <optional>

#include "k8s/names.h"
#include "legacy/legacy_containers.h"
#include "legacy/legacy_run_policy.h"
#include "load/field_path.h"
#include "load/json_keys.h"
#include "model/job_name.h"
#include "model/jobset_labels.h"
#include "model/vocabulary.h"
#include "util/text.h"

namespace trainjob {
namespace {

/// A bound on what one document may ask for, so hostile input cannot exhaust memory (the
/// hostfile of as many workers is far below a ConfigMap's limit).
constexpr int64_t kMaxMpiWorkers = 10000;

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

bool read_replica(const FieldReader& reader, const Field& spec, const std::string& type,
                  int64_t default_replicas, const char* default_policy, const MpiReadRules& rules,
                  LegacyReplica* out) {
  out->type = type;
  out->lower = type == "Launcher" ? "launcher" : "worker";
  out->path = spec.path();
  out->replicas = default_replicas;
  out->restart_policy = default_policy;
  bool ok_policy = true;
  if (!reader.is_object(spec)) return false;
  if (Field replicas = spec["replicas"]) {
    std::optional<int64_t> value = reader.integer(replicas);
    if (!value) return false;
    out->replicas = *value;
  }
  if (Field policy = spec["restartPolicy"]) {
    std::optional<std::string> value = reader.string(policy);
    if (!value) return false;
    if (!value->empty()) out->restart_policy = *value;
    if (std::find(rules.restart_policies.begin(), rules.restart_policies.end(),
                  out->restart_policy) == rules.restart_policies.end()) {
      reader.error(policy.path(), "expected restartPolicy " + joined(rules.restart_policies) +
                                      ", found \"" + out->restart_policy + "\"");
      out->restart_policy = default_policy;  // read on, so the other rules are reported too
      ok_policy = false;
    }
  }
  Field pod_template = spec["template"];
  if (!pod_template) {
    reader.error(out->path, "replica type " + type + " needs a pod template (template)");
    return false;
  }
  if (!reader.is_object(pod_template)) return false;
  out->pod_template = *pod_template.value;
  const Json& containers = json_member(json_member(out->pod_template, "spec"), "containers");
  std::string containers_path = out->path + ".template.spec.containers";
  if (!containers.is_array() || containers.empty()) {
    reader.error(containers_path, "expected at least one container");
    return false;
  }
  return check_legacy_containers(reader, pod_template.path(), out->pod_template) && ok_policy;
}

/// The Launcher and Worker replica specs as they are read.
struct MpiReplicaSlots {
  std::optional<LegacyReplica> launcher;
  std::optional<LegacyReplica> worker;
};

/// The slot the replica spec `key` fills; null, with an error, for a key that names no
/// replica type (a key given twice is refused when the YAML is read). Both operators
/// validate the keys before defaulting them, so they are matched exactly: the Training
/// Operator fails a v1 job keyed `launcher` ("MPIReplicaType is launcher but must be one of
/// [Launcher Worker]"), mpi-operator's webhook refuses a v2beta1 one.
std::optional<LegacyReplica>* slot_for(const FieldReader& reader, const LegacyKind& kind,
                                       const std::string& key, const Field& spec,
                                       MpiReplicaSlots* slots) {
  if (key == "Launcher") return &slots->launcher;
  if (key == "Worker") return &slots->worker;
  std::string message = "unknown replica type \"" + key + "\" of " + kind.api_version +
                        " MPIJob: expected Launcher or Worker";
  for (const char* type : {"Launcher", "Worker"}) {
    if (ascii_lower(key) == ascii_lower(type)) {
      message = "unsupported replica type \"" + key + "\" of " + kind.api_version +
                " MPIJob: its operator matches replica types exactly (supported: Launcher, "
                "Worker); write the key as " +
                type;
    }
  }
  reader.key_error(spec.path(), message);
  return nullptr;
}

/// The replicas read into `job`: the launcher first, then the workers when there are any.
void place_replicas(MpiReplicaSlots* slots, MpiLegacyJob* job) {
  job->base.replicas.push_back(std::move(*slots->launcher));
  if (slots->worker) job->base.replicas.push_back(std::move(*slots->worker));
  job->launcher = &job->base.replicas[0];
  if (slots->worker) {
    job->worker = &job->base.replicas[1];
    job->workers = job->worker->replicas;
  }
}

bool read_replicas(const FieldReader& reader, const LegacyKind& kind, const MpiReadRules& rules,
                   MpiLegacyJob* job) {
  Field specs = reader.root()["spec"]["mpiReplicaSpecs"];
  if (!specs) {
    reader.error("spec.mpiReplicaSpecs", "an MPIJob needs mpiReplicaSpecs with a Launcher");
    return false;
  }
  if (!reader.is_object(specs)) return false;
  bool ok = true;
  MpiReplicaSlots slots;
  for (const auto& entry : specs.value->items()) {
    Field spec = specs[entry.key()];
    std::optional<LegacyReplica>* slot = slot_for(reader, kind, entry.key(), spec, &slots);
    if (slot == nullptr) {
      ok = false;
      continue;
    }
    bool is_launcher = slot == &slots.launcher;
    slot->emplace();
    ok = read_replica(reader, spec, is_launcher ? "Launcher" : "Worker", is_launcher ? 1 : 0,
                      is_launcher ? rules.launcher_restart_policy : rules.worker_restart_policy,
                      rules, &**slot) &&
         ok;
  }
  if (!slots.launcher) {
    reader.error(specs.path(), "expected a Launcher replica spec");
    return false;
  }
  place_replicas(&slots, job);
  return ok;
}

/// The rules both operators share: one launcher, a name every pod name fits, slots ≥ 0.
bool check_shape(const FieldReader& reader, const MpiLegacyJob& job) {
  bool ok = true;
  if (job.launcher->replicas != 1) {
    reader.error(job.launcher->path + ".replicas",
                 "expected 1 Launcher replica, found " + std::to_string(job.launcher->replicas));
    ok = false;
  }
  if (job.workers < 0 || job.workers > kMaxMpiWorkers) {
    reader.error(job.worker->path + ".replicas", "expected 0 to " + std::to_string(kMaxMpiWorkers) +
                                                     " Worker replicas, found " +
                                                     std::to_string(job.workers));
    ok = false;
  }
  std::string longest = mpi_worker_host(job.base.name, std::max<int64_t>(job.workers, 1) - 1);
  if (!is_dns1035_label(job.base.name) || !is_dns1035_label(longest)) {
    reader.error("metadata.name",
                 "expected a name that makes the pod name \"" + longest +
                     "\" a DNS-1035 label (lower-case letters, digits and '-', starting with a "
                     "letter, at most 63 characters)");
    ok = false;
  }
  if (job.slots < 0) {
    reader.error("spec.slotsPerWorker",
                 "expected slotsPerWorker of 0 or more, found " + std::to_string(job.slots));
    ok = false;
  }
  return ok;
}

}  // namespace

MpiHosts MpiLegacyJob::hosts(bool launcher_first) const {
  MpiHosts out;
  out.job = base.name;
  out.name_space = base.dns_namespace();
  out.workers = workers;
  out.slots = slots;
  out.launcher_first = launcher_first;
  return out;
}

bool read_mpi_legacy_job(const Document& document, const LegacyKind& kind,
                         const MpiReadRules& rules, const CompileOptions& options,
                         MpiLegacyJob* job, Diagnostics* diagnostics) {
  FieldReader reader(document, diagnostics);
  job->base.kind = &kind;
  job->base.document = &document;
  Field metadata = reader.root()["metadata"];
  std::optional<std::string> name = read_job_name(reader, "expected the job's name");
  if (!name) return false;
  job->base.name = *name;
  job->base.name_space = options.default_namespace;
  if (Field name_space = metadata["namespace"]) {
    std::optional<std::string> value = reader.string(name_space);
    if (!value) return false;
    job->base.name_space = *value;
  }
  Field spec = reader.root()["spec"];
  if (!spec) {
    reader.error("spec", "an MPIJob needs a spec");
    return false;
  }
  if (!reader.is_object(spec)) return false;
  job->base.spec = *spec.value;
  if (Field slots = spec["slotsPerWorker"]) {
    std::optional<int64_t> value = reader.integer(slots);
    if (!value) return false;
    job->slots = *value;
  }
  bool ok = read_replicas(reader, kind, rules, job);
  if (job->launcher == nullptr) return false;
  job->base.run_policy = json_member(job->base.spec, "runPolicy");
  if (!job->base.run_policy.is_object()) job->base.run_policy = Json::object();
  if (string_member_ref(job->base.run_policy, "cleanPodPolicy").empty()) {
    // v1 MPIJob: the deprecated spec.cleanPodPolicy stands in for the runPolicy one.
    const std::string& deprecated = string_member_ref(job->base.spec, "cleanPodPolicy");
    job->base.run_policy["cleanPodPolicy"] = deprecated.empty() ? "None" : deprecated;
  }
  return check_shape(reader, *job) && ok;
}

bool start_mpi_legacy_compile(const Document& document, const LegacyKind& kind,
                              const MpiReadRules& rules, const CompileOptions& options,
                              MpiLegacyJob* job, LegacyGang* gang, Diagnostics* diagnostics) {
  read_mpi_legacy_job(document, kind, rules, options, job, diagnostics);
  if (job->launcher == nullptr) return false;
  state_baked_namespace(&job->base);
  *gang = legacy_gang(job->base);
  warn_run_policy(job->base, *gang, FieldReader(document, diagnostics));
  return true;
}

std::vector<Json> finish_mpi_legacy_objects(const MpiLegacyJob& job, LegacyGang gang,
                                            std::vector<Json> out, Json launcher,
                                            const std::function<Json(int64_t)>& worker_job) {
  if (std::optional<Json> group = legacy_pod_group(job.base, gang))
    out.push_back(std::move(*group));
  out.push_back(std::move(launcher));
  for (int64_t i = 0; i < job.workers; ++i)
    out.push_back(worker_job(i));
  for (Json& object : out)
    sort_keys(&object);
  return out;
}

Json mpi_object_metadata(const MpiLegacyJob& job, const std::string& name, Json labels) {
  const Json ownership = ownership_labels(job.base.name);
  for (const auto& entry : ownership.items())
    labels[entry.key()] = entry.value();
  Json metadata = {{"name", name}, {"labels", std::move(labels)}};
  if (!job.base.name_space.empty()) metadata["namespace"] = job.base.name_space;
  return metadata;
}

Json mpi_config_map(const MpiLegacyJob& job, Json data) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", mpi_object_metadata(job, job.base.name + "-config",
                                               Json{{kMpiAppLabel, job.base.name}})},
              {"data", std::move(data)}};
}

Json* mpi_main_container(Json* pod_template) {
  Json& spec = (*pod_template)["spec"];
  if (!spec.is_object()) return nullptr;
  Json& containers = spec["containers"];
  if (!containers.is_array() || containers.empty() || !containers[0].is_object()) return nullptr;
  return &containers[0];
}

void mpi_add_volume(Json* pod_template, Json volume, Json mount) {
  Json& volumes = (*pod_template)["spec"]["volumes"];
  if (!volumes.is_array()) volumes = Json::array();
  volumes.push_back(std::move(volume));
  Json* container = mpi_main_container(pod_template);
  if (container == nullptr) return;
  Json& mounts = (*container)["volumeMounts"];
  if (!mounts.is_array()) mounts = Json::array();
  mounts.push_back(std::move(mount));
}

std::string mpi_success_policy() {
  return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({"launcher"})}}.dump();
}

Json mpi_pod_job(const MpiLegacyJob& job, const LegacyReplica& replica, const std::string& name,
                 const Json& labels, Json pod_template) {
  Json& pod_metadata = pod_template["metadata"];
  if (!pod_metadata.is_object()) pod_metadata = Json::object();
  for (const auto& entry : labels.items())
    pod_metadata["labels"][entry.key()] = entry.value();
  const Json ownership = ownership_labels(job.base.name);
  for (const auto& entry : ownership.items())
    pod_metadata["labels"][entry.key()] = entry.value();
  pod_template["spec"]["restartPolicy"] = legacy_pod_restart_policy(replica.restart_policy);
  Json spec = {{"completions", 1}, {"parallelism", 1}, {"template", std::move(pod_template)}};
  apply_run_policy(job.base, replica, &spec);
  Json metadata = mpi_object_metadata(job, name, labels);
  metadata["annotations"] = {{kSourceKindAnnotation, job.base.kind->kind},
                             {kSuccessPolicyAnnotation, mpi_success_policy()},
                             {kReplicasAnnotation, std::to_string(replica.replicas)}};
  annotate_clean_pod_policy(job.base, &metadata);
  annotate_gang_job(legacy_gang(job.base), &metadata);
  label_for_kueue(job.base, &metadata);
  return Json{{"apiVersion", kBatchApiVersion},
              {"kind", "Job"},
              {"metadata", std::move(metadata)},
              {"spec", std::move(spec)}};
}

}  // namespace trainjob
