// The Training Operator's MPIJob (kubeflow.org/v1). Its launcher reaches the workers with
// `kubectl exec` (kubexec.sh as OpenMPI's rsh agent), not by DNS, so there are no
// Services: a ConfigMap `J-config` (hostfile, kubexec.sh, discover_hosts.sh), a
// ServiceAccount, Role and RoleBinding `J-launcher` that allow the exec, the launcher Job
// `J-launcher` with the kubectl-delivery init container, and a Job `J-worker-i` per worker.
// Job pods carry a random suffix, so kubexec.sh finds each worker's pod by its labels, and
// the init container waits for the workers by label too (docs/legacy-kinds.md).
#include "legacy/kind_mpi.h"
#include "legacy/legacy_run_policy.h"
#include "legacy/mpi_legacy_files.h"
#include "legacy/mpi_legacy_job.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// v1.9.4's default of the operator's --kubectl-delivery-image flag.
constexpr const char* kKubectlDeliveryImage =
    "ghcr.io/kubeflow/training-v1/kubectl-delivery:latest";
constexpr const char* kKubectlDir = "/opt/kube";

/// A launcher with a GPU limit is itself in the hostfile and keeps the GPUs visible: any
/// limit whose name contains "gpu", as the operator tests it.
bool is_gpu_launcher(const MpiLegacyJob& job) {
  const Json& containers =
      json_member(json_member(job.launcher->pod_template, "spec"), "containers");
  for (const Json& container : containers) {
    const Json& limits = json_member(json_member(container, "resources"), "limits");
    if (!limits.is_object()) continue;
    for (const auto& entry : limits.items()) {
      if (entry.key().find("gpu") != std::string::npos) return true;
    }
  }
  return false;
}

Json operator_labels(const MpiLegacyJob& job, const char* replica_type) {
  return Json{{kOperatorNameLabel, kMpiV1OperatorName},
              {kLegacyJobNameLabel, job.base.name},
              {kReplicaTypeLabel, replica_type}};
}

std::string worker_selector(const MpiLegacyJob& job) {
  return std::string(kLegacyJobNameLabel) + "=" + job.base.name + "," + kReplicaTypeLabel +
         "=worker";
}

std::string launcher_name(const MpiLegacyJob& job) {
  return mpi_launcher_host(job.base.name);
}

Json app_metadata(const MpiLegacyJob& job) {
  return mpi_object_metadata(job, launcher_name(job), Json{{kMpiAppLabel, job.base.name}});
}

/// ServiceAccount (unless the launcher names its own), Role and RoleBinding `J-launcher`.
std::vector<Json> rbac_objects(const MpiLegacyJob& job) {
  std::vector<Json> out;
  std::string account =
      string_member_ref(json_member(job.launcher->pod_template, "spec"), "serviceAccountName");
  if (account.empty()) {
    account = launcher_name(job);
    out.push_back(
        Json{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", app_metadata(job)}});
  }
  Json rules = Json::array(
      {Json{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get", "list", "watch"}}},
       Json{{"apiGroups", {""}}, {"resources", {"pods/exec"}}, {"verbs", {"create"}}}});
  out.push_back(Json{{"apiVersion", kRbacApiVersion},
                     {"kind", "Role"},
                     {"metadata", app_metadata(job)},
                     {"rules", std::move(rules)}});
  Json subject = {{"kind", "ServiceAccount"}, {"name", account}};
  if (!job.base.name_space.empty()) subject["namespace"] = job.base.name_space;
  out.push_back(Json{
      {"apiVersion", kRbacApiVersion},
      {"kind", "RoleBinding"},
      {"metadata", app_metadata(job)},
      {"roleRef",
       {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", launcher_name(job)}}},
      {"subjects", Json::array({subject})}});
  return out;
}

/// The init container: copies kubectl for kubexec.sh, then waits until every worker pod is
/// Running (the operator's image waits for pods by name, which Job pods do not have).
Json kubectl_delivery(const MpiLegacyJob& job) {
  std::string script = std::string("cp /bin/kubectl ") + kKubectlDir + "/kubectl\n";
  if (job.workers > 0) {
    script += "until [ \"$(/bin/kubectl get pods -n \"$NAMESPACE\" -l " + worker_selector(job) +
              " --field-selector=status.phase=Running -o name | wc -l)\" -ge " +
              std::to_string(job.workers) + " ]; do\n  sleep 5\ndone\n";
  }
  Json quantities = {{"cpu", "100m"}, {"memory", "512Mi"}, {"ephemeral-storage", "5Gi"}};
  return Json{
      {"name", "kubectl-delivery"},
      {"image", kKubectlDeliveryImage},
      {"imagePullPolicy", "IfNotPresent"},  // as the operator sets it (the tag is latest)
      {"command", {"/bin/sh", "-c", script}},
      {"env", Json::array({legacy_env("TARGET_DIR", kKubectlDir),
                           legacy_env("NAMESPACE", job.base.dns_namespace())})},
      {"resources", {{"limits", quantities}, {"requests", quantities}}},
      {"volumeMounts",
       Json::array({Json{{"name", kMpiKubectlVolume}, {"mountPath", kKubectlDir}},
                    Json{{"name", kMpiConfigVolume}, {"mountPath", kMpiConfigMountPath}}})}};
}

bool has_env(const Json& container, const std::string& name) {
  for (const Json& var : json_member(container, "env")) {
    if (string_member_ref(var, "name") == name) return true;
  }
  return false;
}

Json launcher_env(const Json& container, bool gpu) {
  const std::string kubexec = std::string(kMpiConfigMountPath) + "/kubexec.sh";
  Json env =
      Json::array({legacy_env(kOmpiRshAgentEnv, kubexec),
                   legacy_env(kOmpiHostfileEnv, std::string(kMpiConfigMountPath) + "/hostfile")});
  if (!gpu) {
    env.push_back(legacy_env("NVIDIA_VISIBLE_DEVICES", ""));
    env.push_back(legacy_env("NVIDIA_DRIVER_CAPABILITIES", ""));
  }
  // Intel MPI's bootstrap, unless the user chose their own.
  if (!has_env(container, "I_MPI_HYDRA_BOOTSTRAP"))
    env.push_back(legacy_env("I_MPI_HYDRA_BOOTSTRAP", "rsh"));
  if (!has_env(container, "I_MPI_HYDRA_BOOTSTRAP_EXEC"))
    env.push_back(legacy_env("I_MPI_HYDRA_BOOTSTRAP_EXEC", kubexec));
  return env;
}

Json config_items(bool all) {
  Json items = Json::array({Json{{"key", "kubexec.sh"}, {"path", "kubexec.sh"}, {"mode", 0555}}});
  if (!all) return items;
  items.push_back(Json{{"key", "hostfile"}, {"path", "hostfile"}, {"mode", 0444}});
  items.push_back(
      Json{{"key", "discover_hosts.sh"}, {"path", "discover_hosts.sh"}, {"mode", 0555}});
  return items;
}

Json config_volume(const MpiLegacyJob& job, bool all) {
  return Json{{"name", kMpiConfigVolume},
              {"configMap", {{"name", job.base.name + "-config"}, {"items", config_items(all)}}}};
}

Json launcher_job(const MpiLegacyJob& job, bool gpu, LegacyGang gang) {
  Json pod = job.launcher->pod_template;
  Json& spec = pod["spec"];
  spec["hostname"] = launcher_name(job);
  if (string_member_ref(spec, "serviceAccountName").empty())
    spec["serviceAccountName"] = launcher_name(job);
  if (!spec["initContainers"].is_array()) spec["initContainers"] = Json::array();
  spec["initContainers"].push_back(kubectl_delivery(job));
  Json* main = mpi_main_container(&pod);
  legacy_append_env(main, launcher_env(*main, gpu));
  mpi_add_volume(&pod, Json{{"name", kMpiKubectlVolume}, {"emptyDir", Json::object()}},
                 Json{{"name", kMpiKubectlVolume}, {"mountPath", kKubectlDir}});
  mpi_add_volume(&pod, config_volume(job, true),
                 Json{{"name", kMpiConfigVolume}, {"mountPath", kMpiConfigMountPath}});
  decorate_pod(job.base, gang, *job.launcher, &pod);
  Json labels = operator_labels(job, "launcher");
  labels[kJobRoleLabel] = kJobRoleMaster;
  return mpi_pod_job(job, *job.launcher, launcher_name(job), labels, std::move(pod));
}

Json worker_job(const MpiLegacyJob& job, LegacyGang gang, int64_t index) {
  Json pod = job.worker->pod_template;
  pod["spec"]["hostname"] = mpi_worker_host(job.base.name, index);
  Json* main = mpi_main_container(&pod);
  const Json& command = json_member(*main, "command");
  if (!command.is_array() || command.empty()) {
    // The operator keeps the worker alive for the launcher's exec.
    (*main)["command"] = Json::array({"sleep"});
    (*main)["args"] = Json::array({"365d"});
  }
  mpi_add_volume(&pod, config_volume(job, false),
                 Json{{"name", kMpiConfigVolume}, {"mountPath", kMpiConfigMountPath}});
  decorate_pod(job.base, gang, *job.worker, &pod);
  Json labels = operator_labels(job, "worker");
  labels[kReplicaIndexLabel] = std::to_string(index);
  return mpi_pod_job(job, *job.worker, mpi_worker_host(job.base.name, index), labels,
                     std::move(pod));
}

bool config_map(const MpiLegacyJob& job, bool gpu, const FieldReader& reader, Json* out) {
  MpiHosts hosts = job.hosts(gpu);
  std::string hostfile;
  std::string discover;
  if (!mpi_v1_hostfile(hosts, &hostfile) || !mpi_v1_discover_hosts(hosts, &discover)) {
    reader.error("spec.mpiReplicaSpecs",
                 "expected a hostfile of at most 1 MiB (a ConfigMap's "
                 "limit): the job has too many workers");
    return false;
  }
  const std::string& main_container = string_member_ref(job.base.spec, "mainContainer");
  *out = mpi_config_map(job, Json{{"hostfile", hostfile},
                                  {"kubexec.sh", mpi_v1_kubexec(job.base.name, main_container)},
                                  {"discover_hosts.sh", discover}});
  return true;
}

MpiReadRules v1_read_rules() {
  MpiReadRules rules;
  rules.restart_policies = {"Always", "OnFailure", "Never", "ExitCode"};
  return rules;
}

}  // namespace

std::vector<Json> compile_mpi_v1(const Document& document, const CompileOptions& options,
                                 Diagnostics* diagnostics) {
  const int errors_before = diagnostics->error_count();
  MpiLegacyJob job;
  LegacyGang gang = LegacyGang::kNone;
  if (!start_mpi_legacy_compile(document, kMPIJobV1Kind, v1_read_rules(), options, &job, &gang,
                                diagnostics))
    return {};
  FieldReader reader(document, diagnostics);
  reader.warning(job.launcher->path,
                 "Role \"" + launcher_name(job) +
                     "\" lets the launcher exec into every pod of the namespace: the operator "
                     "names the worker pods in it, but Job pods have generated names");
  if (diagnostics->error_count() > errors_before) return {};
  const bool gpu = is_gpu_launcher(job);
  std::vector<Json> out;
  Json config;
  if (!config_map(job, gpu, reader, &config)) return {};
  out.push_back(std::move(config));
  for (Json& object : rbac_objects(job))
    out.push_back(std::move(object));
  return finish_mpi_legacy_objects(job, gang, std::move(out), launcher_job(job, gpu, gang),
                                   [&](int64_t i) { return worker_job(job, gang, i); });
}

const LegacyKind kMPIJobV1Kind = {
    kKubeflowV1ApiVersion,
    "MPIJob",
    "mpiReplicaSpecs",
    {"Launcher", "Worker"},
    "mpi",
    "mpi-port",
    9999,
    "Never",
    kMpiV1OperatorName,
    "deepspeed-distributed",
    LegacyEnvTarget::kDefaultContainer,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    compile_mpi_v1,
    /*names_namespace=*/true,  // the hostfile and the launcher's NAMESPACE name it
};

bool read_mpi_v1_shape(const Document& document, MpiJobShape* shape, Diagnostics* diagnostics) {
  const int errors_before = diagnostics->error_count();
  read_mpi_legacy_job(document, kMPIJobV1Kind, v1_read_rules(), CompileOptions(), &shape->job,
                      diagnostics);
  if (shape->job.launcher == nullptr) return false;
  shape->kubectl_exec = true;
  shape->launcher_in_hostfile = is_gpu_launcher(shape->job);
  return diagnostics->error_count() == errors_before;
}

}  // namespace trainjob
