// Training Operator v1 jobs → TrainJobs: the replicas fold into numNodes, the default
// container into spec.trainer, the rest of the pod template into overrides of the
// release's dialect (or, with --with-runtime, into a TrainingRuntime named after the job).
#include "convert/convert_legacy.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "convert/convert_dialect.h"
#include "convert/convert_mpi.h"
#include "convert/legacy_pod_template.h"
#include "legacy/legacy_job.h"
#include "load/field_path.h"
#include "model/embedded_runtimes.h"
#include "model/field.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"
#include "util/text.h"

namespace trainjob {
namespace {

/// One job being converted, and the runtime its TrainJob runs on.
struct LegacyConversion {
  const Document& job;
  const LegacyKind& kind;
  const LegacyConvertOptions& options;
  const FieldReader& reader;
  std::string runtime_name;           ///< --runtime, else the kind's stock runtime
  const Document* runtime = nullptr;  ///< that runtime; null when the release embeds none
};

/// A replica type as the operator reads it: the key matched without regard to case.
struct Replica {
  std::string path;  ///< `spec.pytorchReplicaSpecs.Master`
  const Json* spec = nullptr;
};

Replica find_replica(const Json& specs, const std::string& specs_path, const char* type) {
  Replica out;
  if (!specs.is_object()) return out;
  for (const auto& entry : specs.items()) {
    if (ascii_lower(entry.key()) != ascii_lower(type) || !entry.value().is_object()) continue;
    out.path = field_child(specs_path, entry.key());
    out.spec = &entry.value();
  }
  return out;
}

/// The Master and Worker replicas of a job whose nodes all run one pod template.
struct NodeReplicas {
  Replica master;
  Replica worker;

  /// The replica whose template the nodes run: Master's, else Worker's.
  const Replica& main() const { return master.spec != nullptr ? master : worker; }
};

NodeReplicas read_node_replicas(const Json& spec, const LegacyKind& kind) {
  std::string specs_path = std::string("spec.") + kind.replica_specs_field;
  const Json& specs = json_member(spec, kind.replica_specs_field);
  return {find_replica(specs, specs_path, kReplicaMaster),
          find_replica(specs, specs_path, kReplicaWorker)};
}

/// The first place where `a` and `b` differ, as a field path below `path`.
std::string first_difference(const Json& a, const Json& b, const std::string& path) {
  if (a.is_object() && b.is_object()) {
    for (const auto& entry : b.items()) {
      auto other = a.find(entry.key());
      if (other == a.end()) return field_child(path, entry.key());
      if (*other != entry.value())
        return first_difference(*other, entry.value(), field_child(path, entry.key()));
    }
    return path;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return first_difference(a[i], b[i], field_index(path, i));
    }
  }
  return path;
}

/// What a TrainJob cannot run as the operator did: Master and Worker templates that differ
/// and an elastic policy (errors), a replica's restart policy (a warning).
void check_node_replicas(const Json& spec, const NodeReplicas& nodes, const FieldReader& reader) {
  const Replica& master = nodes.master;
  const Replica& worker = nodes.worker;
  if (master.spec != nullptr && worker.spec != nullptr &&
      json_member(*master.spec, "template") != json_member(*worker.spec, "template")) {
    std::string where =
        first_difference(json_member(*master.spec, "template"),
                         json_member(*worker.spec, "template"), worker.path + ".template");
    reader.error(where,
                 "the Master and Worker pod templates differ here; a TrainJob runs one "
                 "pod template on every node");
  }
  for (const Replica* replica : {&master, &worker}) {
    if (replica->spec != nullptr && replica->spec->contains("restartPolicy")) {
      reader.warning(replica->path + ".restartPolicy",
                     "no TrainJob field: the runtime's Jobs decide restarts");
    }
  }
  if (spec.contains("elasticPolicy")) {
    reader.error("spec.elasticPolicy",
                 "no Trainer v2 release runs elastic PyTorch jobs (min/max "
                 "nodes, restarts, rendezvous settings)");
  }
}

/// Warnings for the run policy fields a TrainJob has no place for; the ones it has are set.
void map_run_policy(const FieldReader& reader, const Json& run_policy, Dialect release,
                    Json* spec) {
  if (!run_policy.is_object()) return;
  for (const auto& entry : run_policy.items()) {
    std::string path = field_child("spec.runPolicy", entry.key());
    const std::string& key = entry.key();
    if (key == "suspend") {
      (*spec)["suspend"] = entry.value();
    } else if (key == "managedBy") {
      if (entry.value() == kMultiKueueControllerName) (*spec)["managedBy"] = entry.value();
    } else if (key == "activeDeadlineSeconds" && release >= Dialect::kV2_2) {
      (*spec)["activeDeadlineSeconds"] = entry.value();
    } else if (key == "activeDeadlineSeconds") {
      reader.error(path, std::string("a TrainJob of Trainer ") + dialect_info(release).version +
                             " has no deadline (spec.activeDeadlineSeconds came with v2.2)");
    } else if (key == "cleanPodPolicy" || key == "ttlSecondsAfterFinished") {
      reader.warning(path, "no TrainJob field: finished pods stay until the TrainJob is deleted");
    } else if (key == "backoffLimit") {
      reader.warning(path,
                     "no TrainJob field: the runtime's Jobs decide how often pods are "
                     "retried");
    } else if (key == "schedulingPolicy") {
      reader.warning(path,
                     "no TrainJob field: gang scheduling is the runtime's podGroupPolicy, "
                     "a queue is Kueue's kueue.x-k8s.io/queue-name label");
    }
  }
}

/// The embedded ClusterTrainingRuntime `name` of `release`, read into `registry` (which
/// holds it); null when the release has none of that name.
const Document* embedded_runtime(const std::string& name, Dialect release,
                                 RuntimeRegistry* registry) {
  std::set<std::string> only = {name};
  Diagnostics quiet;
  add_embedded_runtimes(registry, &quiet, &only);
  const Runtime* runtime = registry->find(kClusterTrainingRuntime, name, "", release);
  return runtime != nullptr ? runtime->document : nullptr;
}

/// Where the TrainJob's node runs in the runtime: the replicated job the trainer step is.
std::string trainer_job_name(const Document* runtime) {
  if (runtime == nullptr) return kNodeName;
  const Json& jobs =
      json_member(json_member(json_member(json_member(runtime->value, "spec"), "template"), "spec"),
                  "replicatedJobs");
  if (!jobs.is_array()) return kNodeName;
  for (const Json& job : jobs) {
    const Json& labels =
        json_member(json_member(json_member(job, "template"), "metadata"), "labels");
    if (string_member(labels, kAncestorLabel) == kTrainerStep)
      return string_member(job, "name", kNodeName);
  }
  return kNodeName;
}

/// The main replica's pod template read for the TrainJob of `num_nodes` nodes.
PodTemplateMapping map_main_template(const LegacyConversion& conversion, const Replica& main,
                                     int64_t num_nodes) {
  PodTemplateMapping mapping;
  mapping.reader = &conversion.reader;
  mapping.release = conversion.options.release;
  mapping.container = conversion.kind.default_container;
  mapping.kind = &conversion.kind;
  mapping.with_runtime = conversion.options.with_runtime;
  mapping.num_nodes = num_nodes;
  mapping.job_name = conversion.job.name();
  mapping.trainer_job = trainer_job_name(conversion.runtime);
  map_pod_template(json_member(*main.spec, "template"), main.path + ".template", &mapping);
  return mapping;
}

/// spec.trainer.numProcPerNode from a PyTorchJob's spec.nprocPerNode: digits as an integer,
/// `auto` left out (the release's default), anything else as written and then checked.
void map_nproc_per_node(const Json& spec, const FieldReader& reader, Dialect release,
                        Json* trainer) {
  const Json& nproc = json_member(spec, "nprocPerNode");
  if (!nproc.is_string()) return;
  std::string value = nproc.get<std::string>();
  bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (digits && value.size() < 10) {
    (*trainer)["numProcPerNode"] = std::stoll(value);
  } else if (value != "auto") {
    (*trainer)["numProcPerNode"] = value;
    convert_num_proc(reader, "spec.nprocPerNode", release, trainer);
  }
}

/// spec.trainer in the order people write it.
Json ordered_trainer(const Json& trainer) {
  Json ordered = Json::object();
  for (const char* key :
       {"image", "command", "args", "env", "numNodes", "numProcPerNode", "resourcesPerNode"}) {
    if (trainer.contains(key)) ordered[key] = trainer[key];
  }
  return ordered;
}

/// The TrainJob, after the TrainingRuntime of its own when the template needs one.
std::vector<Json> converted_objects(const LegacyConversion& conversion,
                                    const PodTemplateMapping& mapping, const Json& trainer) {
  const Document& job = conversion.job;
  Json runtime_ref = {{"name", conversion.runtime_name}};
  std::vector<Json> out;
  if (mapping.needs_runtime && conversion.runtime == nullptr) {
    conversion.reader.error("kind", "--with-runtime starts from an embedded runtime, and \"" +
                                        conversion.runtime_name + "\" is none");
    return {};
  }
  if (mapping.needs_runtime) {
    out.push_back(custom_runtime(conversion.runtime, job, mapping));
    runtime_ref = {{"name", job.name()}, {"kind", kTrainingRuntime}};
  }
  out.push_back(legacy_trainjob(job, conversion.reader, conversion.options, runtime_ref, trainer,
                                mapping.overrides));
  return out;
}

/// A PyTorchJob, XGBoostJob or JAXJob: one pod template, Master's or Worker's, on every node.
std::vector<Json> convert_node_job(const LegacyConversion& conversion, Diagnostics* diagnostics) {
  // The operator's own reading first: its webhook rules and defaults (replica counts).
  LegacyJob legacy;
  if (!read_legacy_job(conversion.job, "", &legacy, diagnostics)) return {};
  const Json& spec = json_member(conversion.job.value, "spec");
  NodeReplicas nodes = read_node_replicas(spec, conversion.kind);
  const Replica& main = nodes.main();
  if (main.spec == nullptr) {
    conversion.reader.error(std::string("spec.") + conversion.kind.replica_specs_field,
                            "expected a Master or Worker replica spec");
    return {};
  }
  check_node_replicas(spec, nodes, conversion.reader);
  PodTemplateMapping mapping = map_main_template(conversion, main, legacy.total_replicas());
  Json trainer = mapping.trainer;
  trainer["numNodes"] = mapping.num_nodes;
  if (&conversion.kind == &kPyTorchJobKind)
    map_nproc_per_node(spec, conversion.reader, conversion.options.release, &trainer);
  return converted_objects(conversion, mapping, ordered_trainer(trainer));
}

Json trainjob_metadata(const Json& metadata) {
  Json out = Json::object();
  if (!metadata.is_object()) return out;
  static const std::set<std::string> kServerSet = {
      "uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink"};
  for (const auto& entry : metadata.items()) {
    if (kServerSet.count(entry.key()) == 0) out[entry.key()] = entry.value();
  }
  return out;
}

}  // namespace

bool is_convertible_legacy_job(const Document& document) {
  return find_legacy_kind(document.api_version(), document.kind()) != nullptr;
}

std::vector<Json> convert_legacy_job(const Document& job, const LegacyConvertOptions& options,
                                     Diagnostics* diagnostics) {
  FieldReader reader(job, diagnostics);
  const LegacyKind& kind = *find_legacy_kind(job.api_version(), job.kind());
  if (kind.trainer_runtime == nullptr) {
    reader.error("kind", std::string("no Kubeflow Trainer v2 runtime runs a ") + kind.kind +
                             "; run it with `kubectl trainjob render` as it is");
    return {};
  }
  std::string runtime_name =
      options.runtime_name.empty() ? kind.trainer_runtime : options.runtime_name;
  RuntimeRegistry registry;
  LegacyConversion conversion{
      job,    kind,         options,
      reader, runtime_name, embedded_runtime(runtime_name, options.release, &registry)};
  if (conversion.runtime == nullptr && options.runtime_name.empty()) {
    reader.error("kind", std::string("the ") + kind.trainer_runtime + " runtime a " + kind.kind +
                             " runs on does not exist in Trainer " +
                             dialect_info(options.release).version);
    return {};
  }
  if (std::string(kind.kind) == "MPIJob")
    return convert_mpi_job(job, options, conversion.runtime, runtime_name, diagnostics);
  return convert_node_job(conversion, diagnostics);
}

Json legacy_trainjob(const Document& job, const FieldReader& reader,
                     const LegacyConvertOptions& options, Json runtime_ref, Json trainer,
                     const Json& overrides) {
  Json spec = Json::object();
  spec["runtimeRef"] = std::move(runtime_ref);
  map_run_policy(reader, json_member(json_member(job.value, "spec"), "runPolicy"), options.release,
                 &spec);
  spec["trainer"] = std::move(trainer);
  if (!overrides.empty()) spec["podTemplateOverrides"] = overrides;
  Json trainjob = Json::object();
  trainjob["apiVersion"] = kTrainerApiVersion;
  trainjob["kind"] = kTrainJob;
  trainjob["metadata"] = trainjob_metadata(json_member(job.value, "metadata"));
  trainjob["spec"] = move_overrides(spec, Dialect::kV2_1, options.release);
  return trainjob;
}

}  // namespace trainjob
