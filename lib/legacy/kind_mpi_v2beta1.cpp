// mpi-operator's MPIJob (kubeflow.org/v2beta1): a launcher Job `J-launcher` that reaches
// the workers `J-worker-i` by ssh over the headless Service `J`, as mpi-operator creates
// them, with the key pair in Secret `J-ssh` and the hostfile in ConfigMap `J-config`.
// Workers are Jobs of one pod (mpi-operator makes bare pods) whose sshd ends once the
// launcher is gone (render/mpi_node_wrapper.cpp).
#include "legacy/kind_mpi.h"
#include "legacy/legacy_run_policy.h"
#include "legacy/mpi_legacy_files.h"
#include "legacy/mpi_legacy_job.h"
#include "model/vocabulary.h"
#include "render/extra_objects.h"
#include "render/mpi_node_wrapper.h"

namespace trainjob {
namespace {

constexpr const char* kRootSshPath = "/root/.ssh";
constexpr const char* kLauncherCreationWait = "WaitForWorkersReady";
constexpr const char* kPrteDifferenceWarning =
    "kubeflow.org/v2beta1 MPIJob: an OpenMPI launcher here also gets PRTE_MCA_* so that Open "
    "MPI 5 uses the hostfile; mpi-operator adds only OMPI_MCA_*, which Open MPI 5 ignores, "
    "running every rank on the launcher (mpi-operator#842)";

/// spec fields after mpi-operator's defaulting.
struct V2Settings {
  MpiImplementation implementation = MpiImplementation::kOpenMpi;
  std::string ssh_mount_path = kRootSshPath;
  bool launcher_as_worker = false;
  bool wait_for_workers = false;
};

bool read_settings(const MpiLegacyJob& job, const FieldReader& reader, V2Settings* out) {
  bool ok = true;
  Field spec = reader.root()["spec"];
  if (Field field = spec["mpiImplementation"]) {
    std::optional<std::string> value = reader.string(field);
    if (value == std::optional<std::string>("Intel")) {
      out->implementation = MpiImplementation::kIntel;
    } else if (value == std::optional<std::string>("MPICH")) {
      out->implementation = MpiImplementation::kMpich;
    } else if (value != std::optional<std::string>("OpenMPI") && value && !value->empty()) {
      reader.error(field.path(),
                   "expected mpiImplementation OpenMPI, Intel or MPICH, found \"" + *value + "\"");
      ok = false;
    }
  }
  if (Field field = spec["sshAuthMountPath"]) {
    std::optional<std::string> value = reader.string(field);
    if (value && !value->empty()) out->ssh_mount_path = *value;
  }
  if (Field field = spec["runLauncherAsWorker"]) {
    out->launcher_as_worker = reader.boolean(field).value_or(false);
  }
  if (Field field = spec["launcherCreationPolicy"]) {
    std::optional<std::string> value = reader.string(field);
    if (value && *value != "AtStartup" && *value != kLauncherCreationWait && !value->empty()) {
      reader.error(field.path(),
                   "expected launcherCreationPolicy AtStartup or "
                   "WaitForWorkersReady, found \"" +
                       *value + "\"");
      ok = false;
    }
    out->wait_for_workers = value == std::optional<std::string>(kLauncherCreationWait);
  }
  if (job.worker != nullptr && job.workers < 1) {
    reader.error(job.worker->path + ".replicas",
                 "expected Worker replicas of 1 or more (mpi-operator defaults them to 0, which "
                 "it rejects), found " +
                     std::to_string(job.workers));
    ok = false;
  }
  return ok;
}

MpiReadRules v2beta1_read_rules() {
  MpiReadRules rules;
  rules.launcher_restart_policy = "OnFailure";
  rules.worker_restart_policy = "Never";
  rules.restart_policies = {"Never", "OnFailure"};
  return rules;
}

/// The webhook's runPolicy rules beyond the schema.
bool check_run_policy(const MpiLegacyJob& job, const FieldReader& reader) {
  bool ok = true;
  const std::string& clean = string_member_ref(job.base.run_policy, "cleanPodPolicy");
  if (clean != "None" && clean != "Running" && clean != "All") {
    reader.error("spec.runPolicy.cleanPodPolicy",
                 "expected cleanPodPolicy None, Running or All, found \"" + clean + "\"");
    ok = false;
  }
  for (const char* key : {"ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit"}) {
    const Json& value = json_member(job.base.run_policy, key);
    if (value.is_number_integer() && value.get<int64_t>() < 0) {
      reader.error(std::string("spec.runPolicy.") + key,
                   std::string("expected ") + key + " of 0 or more, found " + value.dump());
      ok = false;
    }
  }
  return ok;
}

Json ssh_volume(const MpiLegacyJob& job, const V2Settings& settings) {
  Json items = Json::array({Json{{"key", "ssh-privatekey"}, {"path", "id_rsa"}},
                            Json{{"key", "ssh-publickey"}, {"path", "id_rsa.pub"}},
                            Json{{"key", "ssh-publickey"}, {"path", "authorized_keys"}}});
  Json secret = {{"secretName", job.base.name + "-ssh"}, {"items", std::move(items)}};
  if (settings.ssh_mount_path == kRootSshPath) secret["defaultMode"] = 0600;
  return Json{{"name", kMpiLegacySshVolume}, {"secret", std::move(secret)}};
}

/// hostname, subdomain and DNS policy of every pod; the ssh key on container 0.
void common_pod_edits(const MpiLegacyJob& job, const V2Settings& settings,
                      const std::string& hostname, Json* pod) {
  Json& spec = (*pod)["spec"];
  spec["hostname"] = hostname;
  spec["subdomain"] = job.base.name;
  if (json_member(spec, "hostNetwork") == Json(true)) spec["dnsPolicy"] = "ClusterFirstWithHostNet";
  mpi_add_volume(pod, ssh_volume(job, settings),
                 Json{{"name", kMpiLegacySshVolume}, {"mountPath", settings.ssh_mount_path}});
}

Json role_labels(const MpiLegacyJob& job, const char* role) {
  return Json{{kOperatorNameLabel, kMpiOperatorName},
              {kLegacyJobNameLabel, job.base.name},
              {kJobRoleLabel, role}};
}

Json launcher_env(const MpiLegacyJob& job, const V2Settings& settings) {
  const std::string hostfile = std::string(kMpiConfigMountPath) + "/hostfile";
  const std::string slots = std::to_string(job.slots);
  const char* attempts = "-o ConnectionAttempts=10";
  Json env = Json::array({legacy_env("K_MPI_JOB_ROLE", "launcher")});
  switch (settings.implementation) {
    case MpiImplementation::kOpenMpi:
      env.push_back(legacy_env(kOmpiKeepFqdnEnv, "true"));
      env.push_back(legacy_env(kOmpiHostfileEnv, hostfile));
      env.push_back(legacy_env(kOmpiRshArgsEnv, attempts));
      env.push_back(legacy_env(kOmpiSlotsEnv, slots));
      // Beyond mpi-operator (mpi-operator#842, still open): Open MPI 5 ignores the orte_*
      // names and would run every rank on the launcher. keep_fqdn is false for the reason
      // the TrainJob's MPI policy gives (render/policy/mpi.cpp).
      env.push_back(legacy_env(kPrteHostfileEnv, hostfile));
      env.push_back(legacy_env(kPrteKeepFqdnEnv, "false"));
      env.push_back(legacy_env(kPrteSlotsEnv, slots));
      env.push_back(legacy_env(kPrteSshArgsEnv, attempts));
      break;
    case MpiImplementation::kIntel:
      env.push_back(legacy_env("I_MPI_HYDRA_HOST_FILE", hostfile));
      env.push_back(legacy_env("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", attempts));
      env.push_back(legacy_env("I_MPI_PERHOST", slots));
      break;
    case MpiImplementation::kMpich:
      env.push_back(legacy_env("HYDRA_HOST_FILE", hostfile));
      env.push_back(legacy_env("HYDRA_LAUNCH_EXTRA_ARGS", attempts));
      break;
  }
  if (!settings.launcher_as_worker) {
    // The launcher gets no GPU unless it is also a worker, as mpi-operator sees to.
    env.push_back(legacy_env("NVIDIA_VISIBLE_DEVICES", ""));
    env.push_back(legacy_env("NVIDIA_DRIVER_CAPABILITIES", ""));
  }
  return env;
}

Json launcher_job(const MpiLegacyJob& job, const V2Settings& settings, LegacyGang gang) {
  const LegacyReplica& replica = *job.launcher;
  Json pod = replica.pod_template;
  common_pod_edits(job, settings, mpi_launcher_host(job.base.name), &pod);
  Json* main = mpi_main_container(&pod);
  legacy_append_env(main, launcher_env(job, settings));
  Json items = Json::array(
      {Json{{"key", "hostfile"}, {"path", "hostfile"}, {"mode", 0444}},
       Json{{"key", "discover_hosts.sh"}, {"path", "discover_hosts.sh"}, {"mode", 0555}}});
  mpi_add_volume(&pod,
                 Json{{"name", kMpiConfigVolume},
                      {"configMap", {{"name", job.base.name + "-config"}, {"items", items}}}},
                 Json{{"name", kMpiConfigVolume}, {"mountPath", kMpiConfigMountPath}});
  decorate_pod(job.base, gang, replica, &pod);
  Json labels = role_labels(job, "launcher");
  if (settings.launcher_as_worker) labels[kReplicaIndexLabel] = "0";
  Json out = mpi_pod_job(job, replica, mpi_launcher_host(job.base.name), labels, std::move(pod));
  // mpi-operator's launcher Job takes runPolicy's backoffLimit as it is (else Kubernetes'
  // default) and never runs two launcher pods at once.
  Json& spec = out["spec"];
  const Json& backoff = json_member(job.base.run_policy, "backoffLimit");
  if (backoff.is_number_integer()) {
    spec["backoffLimit"] = backoff;
  } else {
    spec.erase("backoffLimit");
  }
  spec["podReplacementPolicy"] = "Failed";
  if (settings.wait_for_workers && job.workers > 0) {
    out["metadata"]["annotations"][kDependsOnAnnotation] =
        Json::array({Json{{"name", "worker"}, {"status", "Ready"}}}).dump();
  }
  return out;
}

/// Worker container 0: sshd when it has neither command nor args (as mpi-operator), then
/// its command wrapped so the pod ends once the launcher's name stopped resolving.
void worker_command(const MpiLegacyJob& job, const FieldReader* reader, Json* main) {
  Json& command = (*main)["command"];
  bool has_args = json_member(*main, "args").is_array() && !(*main)["args"].empty();
  if (!command.is_array() || command.empty()) {
    if (has_args) {
      if (reader != nullptr)
        reader->warning(job.worker->path + ".template.spec.containers[0]",
                        "the worker container has args but no command, so its command cannot be "
                        "wrapped to end with the launcher: the worker Jobs run until `submit "
                        "--wait` or `delete` stops them");
      main->erase("command");
      return;
    }
    command = Json::array({"/usr/sbin/sshd", "-De"});
  }
  std::string launcher = mpi_launcher_host(job.base.name) + "." + job.base.name;
  Json wrapped = Json::array({"/bin/sh", "-c", mpi_node_wrapper_script(launcher), "mpi-worker"});
  for (const Json& word : command)
    wrapped.push_back(word);
  command = std::move(wrapped);
}

Json worker_job(const MpiLegacyJob& job, const V2Settings& settings, LegacyGang gang,
                const FieldReader& reader, int64_t index) {
  const LegacyReplica& replica = *job.worker;
  Json pod = replica.pod_template;
  common_pod_edits(job, settings, mpi_worker_host(job.base.name, index), &pod);
  // Intel MPI and MPICH reach the launcher by its short host name.
  Json& dns_config = pod["spec"]["dnsConfig"];
  if (!dns_config.is_object()) dns_config = Json::object();
  if (!dns_config["searches"].is_array()) dns_config["searches"] = Json::array();
  dns_config["searches"].push_back(job.base.name + "." + job.base.dns_namespace() +
                                   ".svc.cluster.local");
  Json* main = mpi_main_container(&pod);
  worker_command(job, index == 0 ? &reader : nullptr, main);  // one warning, not one per pod
  legacy_append_env(main, Json::array({legacy_env("K_MPI_JOB_ROLE", "worker")}));
  decorate_pod(job.base, gang, replica, &pod);
  Json labels = role_labels(job, "worker");
  labels[kReplicaIndexLabel] = std::to_string(settings.launcher_as_worker ? index + 1 : index);
  return mpi_pod_job(job, replica, mpi_worker_host(job.base.name, index), labels, std::move(pod));
}

Json job_service(const MpiLegacyJob& job) {
  Json selector = {{kOperatorNameLabel, kMpiOperatorName}, {kLegacyJobNameLabel, job.base.name}};
  Json spec = {{"clusterIP", "None"}, {"publishNotReadyAddresses", true}, {"selector", selector}};
  return Json{
      {"apiVersion", "v1"},
      {"kind", "Service"},
      {"metadata", mpi_object_metadata(job, job.base.name, Json{{kMpiAppLabel, job.base.name}})},
      {"spec", std::move(spec)}};
}

bool config_map(const MpiLegacyJob& job, const V2Settings& settings, const FieldReader& reader,
                Json* out) {
  MpiHosts hosts = job.hosts(settings.launcher_as_worker);
  std::string hostfile;
  std::string discover;
  if (!mpi_v2beta1_hostfile(hosts, settings.implementation, &hostfile) ||
      !mpi_v2beta1_discover_hosts(hosts, &discover)) {
    reader.error("spec.mpiReplicaSpecs",
                 "expected a hostfile of at most 1 MiB (a ConfigMap's "
                 "limit): the job has too many workers");
    return false;
  }
  *out = mpi_config_map(job, Json{{"hostfile", hostfile}, {"discover_hosts.sh", discover}});
  return true;
}

}  // namespace

std::vector<Json> compile_mpi_v2beta1(const Document& document, const CompileOptions& options,
                                      Diagnostics* diagnostics) {
  const int errors_before = diagnostics->error_count();
  MpiLegacyJob job;
  LegacyGang gang = LegacyGang::kNone;
  if (!start_mpi_legacy_compile(document, kMPIJobV2beta1Kind, v2beta1_read_rules(), options, &job,
                                &gang, diagnostics))
    return {};
  FieldReader reader(document, diagnostics);
  V2Settings settings;
  read_settings(job, reader, &settings);
  check_run_policy(job, reader);
  if (diagnostics->error_count() > errors_before) return {};
  const std::string secret = job.base.name + "-ssh";
  if (!options.generate_secrets) {
    reader.warning("metadata.name",
                   missing_secret_warning(secret,
                                          "the SSH key the launcher logs in to the "
                                          "workers with"));
  }
  if (settings.implementation == MpiImplementation::kOpenMpi) {
    // Unlocated, so that a render of many MPIJobs says it once.
    diagnostics->warning("", {}, "", kPrteDifferenceWarning);
  }
  std::vector<Json> out = {job_service(job)};
  Json config;
  if (!config_map(job, settings, reader, &config)) return {};
  out.push_back(std::move(config));
  if (options.generate_secrets) {
    std::string error;
    std::optional<Json> object =
        ssh_auth_secret(job.base.name, job.base.name_space, secret, &error);
    if (!object) {
      reader.error("metadata.name", "cannot make Secret \"" + secret + "\": " + error);
      return {};
    }
    out.push_back(std::move(*object));
  }
  return finish_mpi_legacy_objects(
      job, gang, std::move(out), launcher_job(job, settings, gang),
      [&](int64_t i) { return worker_job(job, settings, gang, reader, i); });
}

// mpi-operator has no default container and no port: container 0 is the main one.
const LegacyKind kMPIJobV2beta1Kind = {
    kKubeflowV2beta1ApiVersion,
    "MPIJob",
    "mpiReplicaSpecs",
    {"Launcher", "Worker"},
    "",
    "",
    0,
    "Never",
    kMpiOperatorName,
    "deepspeed-distributed",
    LegacyEnvTarget::kDefaultContainer,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    compile_mpi_v2beta1,
    /*names_namespace=*/true,  // the hostfile and the workers' DNS search name it
    LegacyGangRules::kMpiOperator,
};

bool read_mpi_v2beta1_shape(const Document& document, MpiJobShape* shape,
                            Diagnostics* diagnostics) {
  const int errors_before = diagnostics->error_count();
  read_mpi_legacy_job(document, kMPIJobV2beta1Kind, v2beta1_read_rules(), CompileOptions(),
                      &shape->job, diagnostics);
  if (shape->job.launcher == nullptr) return false;
  FieldReader reader(document, diagnostics);
  V2Settings settings;
  read_settings(shape->job, reader, &settings);
  check_run_policy(shape->job, reader);
  static const char* const kImplementations[] = {"OpenMPI", "Intel", "MPICH"};
  shape->implementation = kImplementations[static_cast<int>(settings.implementation)];
  shape->ssh_mount_path = settings.ssh_mount_path;
  shape->launcher_in_hostfile = settings.launcher_as_worker;
  shape->wait_for_workers = settings.wait_for_workers;
  return diagnostics->error_count() == errors_before;
}

}  // namespace trainjob
