// Training Operator v1 jobs → TrainJobs: the replicas fold into numNodes, the default
// container into spec.trainer, the rest of the pod template into overrides of the target
// dialect (or, with --with-runtime, into a TrainingRuntime named after the job).
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

namespace trainjob {
namespace {

std::string lower(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// A replica type as the operator reads it: the key matched without regard to case.
struct Replica {
  std::string path;  ///< `spec.pytorchReplicaSpecs.Master`
  const Json* spec = nullptr;
};

Replica find_replica(const Json& specs, const std::string& specs_path, const char* type) {
  Replica out;
  if (!specs.is_object()) return out;
  for (const auto& entry : specs.items()) {
    if (lower(entry.key()) != lower(type) || !entry.value().is_object()) continue;
    out.path = field_child(specs_path, entry.key());
    out.spec = &entry.value();
  }
  return out;
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

const Document* stock_runtime(const RuntimeRegistry& registry, const std::string& name,
                              Dialect release) {
  const Runtime* runtime = registry.find(kClusterTrainingRuntime, name, "", release);
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
  RuntimeRegistry registry;
  std::string runtime_name =
      options.runtime_name.empty() ? kind.trainer_runtime : options.runtime_name;
  std::set<std::string> only = {runtime_name};
  Diagnostics quiet;
  add_embedded_runtimes(&registry, &quiet, &only);
  const Document* runtime = stock_runtime(registry, runtime_name, options.release);
  if (runtime == nullptr && options.runtime_name.empty()) {
    reader.error("kind", std::string("the ") + kind.trainer_runtime + " runtime a " + kind.kind +
                             " runs on does not exist in Trainer " +
                             dialect_info(options.release).version);
    return {};
  }
  if (std::string(kind.kind) == "MPIJob")
    return convert_mpi_job(job, options, runtime, runtime_name, diagnostics);
  // The operator's own reading first: its webhook rules and defaults (replica counts).
  LegacyJob legacy;
  if (!read_legacy_job(job, "", &legacy, diagnostics)) return {};
  const Json& spec = json_member(job.value, "spec");
  std::string specs_path = std::string("spec.") + kind.replica_specs_field;
  const Json& specs = json_member(spec, kind.replica_specs_field);
  Replica master = find_replica(specs, specs_path, "Master");
  Replica worker = find_replica(specs, specs_path, "Worker");
  const Replica& main = master.spec != nullptr ? master : worker;
  if (main.spec == nullptr) {
    reader.error(specs_path, "expected a Master or Worker replica spec");
    return {};
  }
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
  PodTemplateMapping mapping;
  mapping.reader = &reader;
  mapping.release = options.release;
  mapping.container = kind.default_container;
  mapping.kind = kind.kind;
  mapping.with_runtime = options.with_runtime;
  mapping.num_nodes = legacy.total_replicas();
  mapping.job_name = job.name();
  mapping.trainer_job = trainer_job_name(runtime);
  map_pod_template(json_member(*main.spec, "template"), main.path + ".template", &mapping);

  Json trainer = mapping.trainer;
  trainer["numNodes"] = mapping.num_nodes;
  const Json& nproc = json_member(spec, "nprocPerNode");
  if (std::string(kind.kind) == "PyTorchJob" && nproc.is_string()) {
    std::string value = nproc.get<std::string>();
    bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (digits && value.size() < 10) {
      trainer["numProcPerNode"] = std::stoll(value);
    } else if (value != "auto") {
      trainer["numProcPerNode"] = value;
      convert_num_proc(reader, "spec.nprocPerNode", options.release, &trainer);
    }
  }
  // spec.trainer in the order people write it.
  Json ordered = Json::object();
  for (const char* key :
       {"image", "command", "args", "env", "numNodes", "numProcPerNode", "resourcesPerNode"}) {
    if (trainer.contains(key)) ordered[key] = trainer[key];
  }
  trainer = ordered;
  Json runtime_ref = {{"name", runtime_name}};
  std::vector<Json> out;
  if (mapping.needs_runtime && runtime == nullptr) {
    reader.error("kind", "--with-runtime starts from an embedded runtime, and \"" + runtime_name +
                             "\" is none");
    return {};
  }
  if (mapping.needs_runtime) {
    out.push_back(custom_runtime(runtime, job, mapping));
    runtime_ref = {{"name", job.name()}, {"kind", kTrainingRuntime}};
  }
  out.push_back(legacy_trainjob(job, reader, options, runtime_ref, trainer, mapping.overrides));
  return out;
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
