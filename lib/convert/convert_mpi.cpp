// MPIJob → TrainJob. The Launcher's main container becomes spec.trainer (image, command,
// args: what a TrainJob sets on the launcher of an MPI runtime), the Workers become the
// runtime's `node` Jobs, slotsPerWorker its numProcPerNode, runLauncherAsWorker (or v1's
// GPU launcher) its runLauncherAsNode, sshAuthMountPath its own. Where the stock runtime
// fixes any of these otherwise, the job would run differently on it: a located error
// unless --with-runtime writes a TrainingRuntime named after the job.
#include "convert/convert_mpi.h"

#include <algorithm>
#include <utility>

#include "k8s/pod_spec.h"
#include "legacy/kind_mpi.h"
#include "legacy/legacy_run_policy.h"
#include "load/field_path.h"
#include "model/jobset_labels.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The fields of the launcher's main container a TrainJob's spec.trainer carries.
constexpr const char* kTrainerFields[] = {"image", "command", "args"};

/// One place where the stock runtime would run the job differently.
struct Difference {
  std::string path;
  std::string message;
};

const Json& stock_mpi_policy(const Document& stock) {
  return json_member(json_member(json_member(stock.value, "spec"), "mlPolicy"), "mpi");
}

/// Container `node` of the stock runtime's replicated job `name`.
const Json& stock_container(const Document& stock, const char* name) {
  static const Json kNone = Json::object();
  const Json& jobs =
      json_member(json_member(json_member(json_member(stock.value, "spec"), "template"), "spec"),
                  "replicatedJobs");
  if (!jobs.is_array()) return kNone;
  for (const Json& job : jobs) {
    if (string_member(job, "name") != name) continue;
    const Json& pod = json_member(json_member(json_member(job, "template"), "spec"), "template");
    if (const Json* node = find_container(json_member(pod, "spec"), kNodeName)) return *node;
  }
  return kNone;
}

const Json& main_container(const LegacyReplica& replica) {
  const Json& containers = json_member(json_member(replica.pod_template, "spec"), "containers");
  return containers.is_array() && !containers.empty() ? containers[0] : containers;
}

std::string main_path(const LegacyReplica& replica, const char* field = nullptr) {
  std::string path = replica.path + ".template.spec.containers[0]";
  return field == nullptr ? path : field_child(path, field);
}

/// Fields of a pod template beyond the main container's `allowed` ones: the first one found.
std::string first_extra(const LegacyReplica& replica, const std::vector<std::string>& allowed) {
  const Json& pod = replica.pod_template;
  for (const auto& entry : pod.items()) {
    if (entry.key() != "spec") return field_child(replica.path + ".template", entry.key());
  }
  for (const auto& entry : json_member(pod, "spec").items()) {
    if (entry.key() != "containers" ||
        json_member(json_member(pod, "spec"), "containers").size() != 1)
      return field_child(replica.path + ".template.spec", entry.key());
  }
  for (const auto& entry : main_container(replica).items()) {
    if (entry.key() != "name" &&
        std::find(allowed.begin(), allowed.end(), entry.key()) == allowed.end())
      return main_path(replica, entry.key().c_str());
  }
  return {};
}

/// Each choice of the MPIJob that the stock runtime makes otherwise.
std::vector<Difference> stock_differences(const MpiJobShape& shape, const Document& stock,
                                          const std::string& runtime_name) {
  std::vector<Difference> out;
  const Json& mpi = stock_mpi_policy(stock);
  const LegacyReplica& launcher = *shape.job.launcher;
  const LegacyReplica& worker = *shape.job.worker;
  const bool launcher_node = json_member(mpi, "runLauncherAsNode") == Json(true);
  if (shape.launcher_in_hostfile != launcher_node) {
    out.push_back({shape.job.base.spec.contains("runLauncherAsWorker") ? "spec.runLauncherAsWorker"
                                                                       : launcher.path,
                   shape.launcher_in_hostfile
                       ? "the launcher is one of the MPI hosts and runs ranks; on " + runtime_name +
                             " it only starts mpirun"
                       : "the launcher only starts mpirun; on " + runtime_name +
                             " it is one of the MPI hosts and runs ranks too"});
  }
  const std::string stock_ssh = string_member(mpi, "sshAuthMountPath", "/root/.ssh");
  if (!shape.kubectl_exec && shape.ssh_mount_path != stock_ssh) {
    out.push_back(
        {shape.job.base.spec.contains("sshAuthMountPath") ? "spec.sshAuthMountPath" : "spec",
         "the launcher and workers find the SSH key at " + shape.ssh_mount_path + "; those of " +
             runtime_name + " at " + stock_ssh});
  }
  const Json& node = stock_container(stock, kNodeName);
  const std::string image = string_member(main_container(worker), "image");
  if (image != string_member(node, "image")) {
    out.push_back({main_path(worker, "image"), "the workers run image " + image +
                                                   "; the nodes of " + runtime_name + " run " +
                                                   string_member(node, "image")});
  }
  if (std::string extra = first_extra(worker, {"image"}); !extra.empty())
    out.push_back({extra, "the workers' pod template sets this; the runtime's nodes do not"});
  if (std::string extra = first_extra(launcher, {"image", "command", "args"}); !extra.empty())
    out.push_back({extra,
                   "the launcher's pod template sets this; a TrainJob's spec.trainer "
                   "carries only image, command and args"});
  return out;
}

/// The replica's pod template as a runtime's: main container named `node` (the one the MPI
/// plugin and spec.trainer address), the replica's restart policy on the pod.
Json runtime_pod(const LegacyReplica& replica) {
  Json pod = replica.pod_template;
  Json& spec = pod["spec"];
  if (json_member(spec, "containers").is_array() && !spec["containers"].empty())
    spec["containers"][0]["name"] = kNodeName;
  spec["restartPolicy"] = legacy_pod_restart_policy(replica.restart_policy);
  return pod;
}

/// The workers' pod as a node of an MPI runtime: reached by ssh, so it runs sshd unless the
/// MPIJob says what to run. A v1 MPIJob's workers are reached by kubectl exec instead.
Json node_pod(const MpiJobShape& shape, const FieldReader& reader) {
  const LegacyReplica& worker = *shape.job.worker;
  Json pod = runtime_pod(worker);
  Json& node = pod["spec"]["containers"][0];
  if (node.contains("command") || node.contains("args")) {
    if (shape.kubectl_exec) {
      reader.error(main_path(worker, node.contains("command") ? "command" : "args"),
                   "a kubeflow.org/v1 MPIJob reaches its workers by kubectl exec, so they may "
                   "run any command; a TrainJob's MPI nodes are reached by ssh and must run "
                   "sshd");
    }
    return pod;
  }
  node["command"] = Json::array({"/usr/sbin/sshd", "-De"});
  if (shape.kubectl_exec) {
    reader.warning(main_path(worker),
                   "a TrainJob reaches its MPI nodes by ssh, not kubectl exec: the nodes run "
                   "/usr/sbin/sshd -De, so the worker image needs sshd that accepts the key at "
                   "/root/.ssh");
  }
  return pod;
}

Json replicated_job(const char* name, Json pod, Json labels) {
  Json template_ = Json::object();
  if (!labels.empty()) template_["metadata"] = {{"labels", std::move(labels)}};
  template_["spec"] = {{"template", std::move(pod)}};
  return Json{{"name", name}, {"template", std::move(template_)}};
}

Json own_runtime(const MpiJobShape& shape, const Document& document, const FieldReader& reader) {
  Json mpi = {{"numProcPerNode", shape.job.slots},
              {"mpiImplementation", shape.implementation},
              {"sshAuthMountPath", shape.kubectl_exec ? "/root/.ssh" : shape.ssh_mount_path},
              {"runLauncherAsNode", shape.launcher_in_hostfile}};
  Json launcher = replicated_job(kMpiLauncherJob, runtime_pod(*shape.job.launcher),
                                 Json{{kAncestorLabel, kTrainerStep}});
  if (shape.wait_for_workers) {
    launcher["dependsOn"] = Json::array({Json{{"name", kNodeName}, {"status", "Ready"}}});
    // dependsOn goes before the template, as runtimes are written.
    launcher = Json{{"name", kMpiLauncherJob},
                    {"dependsOn", launcher["dependsOn"]},
                    {"template", launcher["template"]}};
  }
  Json jobset = {{"network", {{"publishNotReadyAddresses", true}}},
                 {"successPolicy",
                  {{"operator", "All"}, {"targetReplicatedJobs", Json::array({kMpiLauncherJob})}}},
                 {"replicatedJobs",
                  Json::array({replicated_job(kNodeName, node_pod(shape, reader), Json::object()),
                               launcher})}};
  Json metadata = {{"name", document.name()}};
  if (!document.name_space().empty()) metadata["namespace"] = document.name_space();
  return Json{{"apiVersion", kTrainerApiVersion},
              {"kind", kTrainingRuntime},
              {"metadata", std::move(metadata)},
              {"spec",
               // The MPI plugin gives the launcher (the trainer ancestor) mlPolicy.numNodes
               // pods: always 1 here. spec.trainer.numNodes sizes the nodes.
               {{"mlPolicy", {{"numNodes", 1}, {"mpi", std::move(mpi)}}},
                {"template", {{"spec", std::move(jobset)}}}}}};
}

bool read_shape(const Document& document, MpiJobShape* shape, Diagnostics* diagnostics) {
  return document.api_version() == kKubeflowV1ApiVersion
             ? read_mpi_v1_shape(document, shape, diagnostics)
             : read_mpi_v2beta1_shape(document, shape, diagnostics);
}

}  // namespace

std::vector<Json> convert_mpi_job(const Document& job, const LegacyConvertOptions& options,
                                  const Document* stock, const std::string& runtime_name,
                                  Diagnostics* diagnostics) {
  const int errors_before = diagnostics->error_count();
  MpiJobShape shape;
  if (!read_shape(job, &shape, diagnostics)) return {};
  FieldReader reader(job, diagnostics);
  if (shape.job.worker == nullptr) {
    reader.error("spec.mpiReplicaSpecs",
                 "expected a Worker replica spec: a TrainJob on an MPI runtime has nodes");
    return {};
  }
  if (shape.implementation != "OpenMPI") {
    reader.error("spec.mpiImplementation",
                 "Kubeflow Trainer runs Open MPI only, found " + shape.implementation);
  }
  if (job.value["spec"].contains("mainContainer")) {
    reader.warning("spec.mainContainer",
                   "no runtime field: a TrainJob's MPI nodes run their first container");
  }
  const int64_t num_nodes = shape.job.workers + (shape.launcher_in_hostfile ? 1 : 0);
  Json trainer = Json::object();
  for (const char* field : kTrainerFields) {
    const Json& value = json_member(main_container(*shape.job.launcher), field);
    if (!value.is_null()) trainer[field] = value;
  }
  trainer["numNodes"] = num_nodes;
  std::vector<Json> out;
  Json runtime_ref = {{"name", runtime_name}};
  if (options.with_runtime) {
    out.push_back(own_runtime(shape, job, reader));
    runtime_ref = {{"name", job.name()}, {"kind", kTrainingRuntime}};
  } else if (stock == nullptr) {
    reader.error("kind", "the runtime \"" + runtime_name + "\" does not exist in Trainer " +
                             dialect_info(options.release).version);
  } else {
    const Json& slots = json_member(stock_mpi_policy(*stock), "numProcPerNode");
    if (!slots.is_number_integer() || slots.get<int64_t>() != shape.job.slots)
      trainer["numProcPerNode"] = shape.job.slots;
    for (const Difference& difference : stock_differences(shape, *stock, runtime_name)) {
      reader.error(difference.path,
                   difference.message + " (--with-runtime writes a TrainingRuntime that keeps it)");
    }
  }
  if (diagnostics->error_count() > errors_before) return {};
  out.push_back(legacy_trainjob(job, reader, options, runtime_ref, trainer, Json::array()));
  return out;
}

}  // namespace trainjob
