#include "legacy/legacy_compile.h"

#include "k8s/names.h"
#include "k8s/pod_spec.h"
#include "legacy/legacy_containers.h"
#include "legacy/legacy_job.h"
#include "legacy/legacy_run_policy.h"
#include "legacy/legacy_workload_gang.h"
#include "load/field_path.h"
#include "model/field.h"
#include "model/jobset_labels.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// A document that is not of a kind we compile (callers check is_legacy_document first;
/// check_api_kind explains retired kinds and versions).
bool report_unknown_kind(const Document& document, Diagnostics* diagnostics) {
  std::string message = "kind " + document.kind() + " of " + document.api_version() +
                        " is not supported: expected one of " + supported_legacy_kinds();
  diagnostics->error(document.file, document.pos_of("kind"), "kind", message);
  return false;
}

std::string pod_name(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  return job.name + "-" + replica.lower + "-" + std::to_string(index);
}

/// The webhook rules every kind shares: a DNS-1035 name, names of pods that fit, and in
/// every replica type a container named like the default container, and containers the
/// API server and the kubelet accept (legacy_containers).
void check_common(const LegacyJob& job, const FieldReader& reader) {
  if (!is_dns1035_label(job.name)) {
    reader.error("metadata.name",
                 "expected a DNS-1035 label (lower-case letters, digits and '-', starting with a "
                 "letter, at most 63 characters), found \"" +
                     job.name + "\"");
  }
  for (const LegacyReplica& replica : job.replicas) {
    std::string longest = pod_name(job, replica, std::max<int64_t>(replica.replicas, 1) - 1);
    if (is_dns1035_label(job.name) && longest.size() > kMaxLabelLength) {
      reader.error("metadata.name", "the pod and Service name \"" + longest + "\" is " +
                                        std::to_string(longest.size()) +
                                        " characters long, over the limit of 63");
    }
    std::string containers_path = replica.path + ".template.spec.containers";
    const Json& containers = json_member(json_member(replica.pod_template, "spec"), "containers");
    if (!containers.is_array() || containers.empty()) {
      reader.error(containers_path,
                   std::string("expected a container named ") + job.kind->default_container);
      continue;
    }
    bool has_default = false;
    for (const Json& container : containers)
      has_default |= string_member_ref(container, "name") == job.kind->default_container;
    check_legacy_containers(reader, replica.path + ".template", replica.pod_template);
    if (!has_default) {
      reader.error(containers_path, std::string("expected a container named ") +
                                        job.kind->default_container + " (the " + job.kind->kind +
                                        "'s default container) in replica type " + replica.type);
    }
  }
}

/// The operator's labels of pod `index` of `replica` (the Service selector), without job-role.
Json operator_labels(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  return Json{{kOperatorNameLabel, job.kind->operator_name},
              {kLegacyJobNameLabel, job.name},
              {kReplicaTypeLabel, replica.lower},
              {kReplicaIndexLabel, std::to_string(index)}};
}

Json with_ownership(Json labels, const LegacyJob& job) {
  Json ownership = ownership_labels(job.name);
  for (const auto& entry : ownership.items())
    labels[entry.key()] = entry.value();
  return labels;
}

Json object_metadata(const LegacyJob& job, const std::string& name, Json labels) {
  Json metadata = {{"name", name}, {"labels", std::move(labels)}};
  if (!job.name_space.empty()) metadata["namespace"] = job.name_space;
  return metadata;
}

/// The headless Service `J-r-i`: the name the operator's per-pod Service has, published
/// before the pod is Ready (which replaces the operator's init-pytorch wait).
Json service_object(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  Json selector = operator_labels(job, replica, index);
  Json spec = {{"clusterIP", "None"}, {"publishNotReadyAddresses", true}, {"selector", selector}};
  const Json* container =
      legacy_default_container(replica.pod_template, job.kind->default_container);
  Json ports = Json::array();
  if (container != nullptr &&
      string_member_ref(*container, "name") == job.kind->default_container) {
    for (const Json& port : json_member(*container, "ports")) {
      if (!port.is_object()) continue;
      Json entry = {{"port", json_member(port, "containerPort")}};
      if (port.contains("name")) entry["name"] = port["name"];
      ports.push_back(std::move(entry));
    }
  }
  if (!ports.empty()) spec["ports"] = std::move(ports);
  return Json{{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata",
               object_metadata(job, pod_name(job, replica, index), with_ownership(selector, job))},
              {"spec", spec}};
}

void add_env(const LegacyJob& job, const Json& env, Json* pod_spec) {
  Json& containers = (*pod_spec)["containers"];
  if (!containers.is_array() || env.empty()) return;
  if (job.kind->env_target == LegacyEnvTarget::kDefaultContainer) {
    if (Json* container = find_container(pod_spec, job.kind->default_container))
      legacy_append_env(container, env);
    return;
  }
  for (Json& container : containers) {
    if (container.is_object()) legacy_append_env(&container, env);
  }
}

struct JobAnnotations {
  std::string success_policy;  ///< compact JSON
};

Json job_object(const LegacyJob& job, const LegacyReplica& replica, int64_t index, LegacyGang gang,
                const JobAnnotations& shared) {
  std::string name = pod_name(job, replica, index);
  Json labels = operator_labels(job, replica, index);
  if (job.kind->is_master_role(job, replica, index)) labels[kJobRoleLabel] = kJobRoleMaster;
  labels = with_ownership(std::move(labels), job);

  Json pod = replica.pod_template;
  Json& pod_metadata = pod["metadata"];
  if (!pod_metadata.is_object()) pod_metadata = Json::object();
  for (const auto& entry : labels.items())
    pod_metadata["labels"][entry.key()] = entry.value();
  Json& pod_spec = pod["spec"];
  add_env(job, job.kind->pod_env(job, replica, index), &pod_spec);
  pod_spec["restartPolicy"] = legacy_pod_restart_policy(replica.restart_policy);
  if (string_member_ref(pod_spec, "hostname").empty()) pod_spec["hostname"] = name;
  decorate_pod(job, gang, replica, &pod);

  Json spec = {{"completions", 1}, {"parallelism", 1}, {"template", std::move(pod)}};
  apply_run_policy(job, replica, &spec);
  Json metadata = object_metadata(job, name, std::move(labels));
  metadata["annotations"] = {{kSourceKindAnnotation, job.kind->kind},
                             {kSuccessPolicyAnnotation, shared.success_policy},
                             {kReplicasAnnotation, std::to_string(replica.replicas)}};
  annotate_clean_pod_policy(job, &metadata);
  annotate_gang_job(gang, &metadata);
  label_for_kueue(job, &metadata);
  return Json{{"apiVersion", kBatchApiVersion},
              {"kind", "Job"},
              {"metadata", metadata},
              {"spec", std::move(spec)}};
}

/// Warns where the template sets a restartPolicy: the operator overwrites it.
void warn_template_restart_policy(const LegacyJob& job, const FieldReader& reader) {
  for (const LegacyReplica& replica : job.replicas) {
    const Json& policy = json_member(json_member(replica.pod_template, "spec"), "restartPolicy");
    if (policy.is_null()) continue;
    reader.warning(replica.path + ".template.spec.restartPolicy",
                   "the replica's restartPolicy (" + replica.restart_policy +
                       ") replaces the pod template's, as the operator does");
  }
}

std::vector<Json> build_objects(const LegacyJob& job, LegacyGang gang) {
  Json policy = job.kind->success_policy(job);
  sort_keys(&policy);
  JobAnnotations shared{policy.dump()};
  std::vector<Json> services;
  std::vector<Json> jobs;
  for (const LegacyReplica& replica : job.replicas) {
    for (int64_t i = 0; i < replica.replicas; ++i) {
      services.push_back(service_object(job, replica, i));
      jobs.push_back(job_object(job, replica, i, gang, shared));
    }
  }
  std::vector<Json> out = std::move(services);
  if (job.kind->extra_objects != nullptr) {
    for (Json& object : job.kind->extra_objects(job))
      out.push_back(std::move(object));
  }
  if (std::optional<Json> group = legacy_pod_group(job, gang)) out.push_back(std::move(*group));
  for (Json& object : jobs)
    out.push_back(std::move(object));
  for (Json& object : out)
    sort_keys(&object);
  return out;
}

/// Bounds on what one document may ask for, so hostile input cannot exhaust memory.
constexpr int64_t kMaxPods = 10000;
/// TF_CONFIG and WORKER_ADDRS list every pod in every pod: the env grows with the square of
/// the pod count, so it is bounded on its own (64 MiB of env across the job).
constexpr size_t kMaxEnvBytes = size_t{64} << 20;

/// Refuses a job whose env, estimated from its first pod's, would exceed kMaxEnvBytes.
bool check_env_size(const LegacyJob& job, const FieldReader& reader) {
  if (job.replicas.empty()) return true;
  size_t per_pod = job.kind->pod_env(job, job.replicas.front(), 0).dump().size();
  size_t total = per_pod * static_cast<size_t>(job.total_replicas());
  if (total <= kMaxEnvBytes) return true;
  reader.error(field_child("spec", job.kind->replica_specs_field),
               "the operator's env would take " + std::to_string(total >> 20) + " MiB across " +
                   std::to_string(job.total_replicas()) +
                   " pods (every pod lists every other); expected at most " +
                   std::to_string(kMaxEnvBytes >> 20) + " MiB: use fewer pods");
  return false;
}

std::vector<Json> compile_operator_job(const Document& document, const CompileOptions& options,
                                       const LegacyKind* kind, Diagnostics* diagnostics) {
  if (kind->compile != nullptr) return kind->compile(document, options, diagnostics);
  int errors_before = diagnostics->error_count();
  LegacyJob job;
  if (!read_legacy_job(document, options.default_namespace, &job, diagnostics)) return {};
  if (kind->names_namespace) state_baked_namespace(&job);
  FieldReader reader(document, diagnostics);
  if (job.total_replicas() > kMaxPods) {
    reader.error(field_child("spec", job.kind->replica_specs_field),
                 "expected at most " + std::to_string(kMaxPods) + " pods in all, found " +
                     std::to_string(job.total_replicas()));
    return {};
  }
  check_common(job, reader);
  check_legacy_managed_by(job, reader);
  if (job.kind->check != nullptr) job.kind->check(job, reader);
  LegacyGang gang = legacy_gang(job);
  warn_template_restart_policy(job, reader);
  warn_run_policy(job, gang, reader);
  if (diagnostics->error_count() > errors_before || !check_env_size(job, reader)) return {};
  return build_objects(job, gang);
}

}  // namespace

std::vector<Json> compile_legacy_job(const Document& document, const CompileOptions& options,
                                     Diagnostics* diagnostics) {
  const LegacyKind* kind = find_legacy_kind(document.api_version(), document.kind());
  if (kind == nullptr) {
    report_unknown_kind(document, diagnostics);
    return {};
  }
  std::vector<Json> objects = compile_operator_job(document, options, kind, diagnostics);
  if (objects.empty() || !options.gang) return objects;
  if (!gang_compiled_jobs(document.name(), FieldReader(document, diagnostics), &objects)) return {};
  return objects;
}

}  // namespace trainjob
