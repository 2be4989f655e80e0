// The MPI policy (OpenMPI): a `launcher` job runs mpirun over ssh into the pods of job
// `node` (and itself with runLauncherAsNode), reading a hostfile. Upstream's plugin finds
// both jobs by name; the launcher is the trainer ancestor, so spec.trainer's image,
// command and args go to it (and from v2.4 the image to the nodes too).
#include "render/policy/mpi.h"

#include <algorithm>
#include <set>

#include "model/num_proc.h"
#include "model/vocabulary.h"
#include "render/ml_policy.h"
#include "render/mpi_node_wrapper.h"
#include "render/pod_edit.h"
#include "render/policy/mpi_objects.h"
#include "render/policy/plugins.h"

namespace trainjob {
namespace {

/// The launcher's env, in upstream's order: Trainer v2.3 refuses these in spec.trainer.env,
/// v2.4 the PRTE ones as well.
constexpr const char* kOrteEnv[] = {kOmpiHostfileEnv, kOmpiKeepFqdnEnv, kOmpiSlotsEnv,
                                    kOmpiRshArgsEnv};
constexpr const char* kPrteEnv[] = {kPrteHostfileEnv, kPrteKeepFqdnEnv, kPrteSlotsEnv,
                                    kPrteSshArgsEnv};

constexpr const char* kHostfileDir = "/etc/mpi";

/// The release that reserves `name` for the launcher ("v2.3+", "v2.4+"), or null.
const char* reserved_since(const DialectInfo& dialect, const std::string& name) {
  auto in = [&](const auto& names) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
  };
  if (dialect.mpi_v2_3 && in(kOrteEnv)) return "v2.3+";
  if (dialect.mpi_v2_4 && in(kPrteEnv)) return "v2.4+";
  return nullptr;
}

bool check_reserved_mpi_env(const CompileState& state) {
  Field env = state.trainjob.trainer["env"];
  if (!env || !env.value->is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < env.value->size(); ++i) {
    std::string name = string_member((*env.value)[i], "name");
    const char* since = reserved_since(state.dialect, name);
    if (since == nullptr) continue;
    state.trainjob_reader.error(
        env.at(i)["name"].path(),
        name + " is reserved for the MPI policy's launcher (Trainer " + since + ")");
    ok = false;
  }
  return ok;
}

/// mlPolicy.mpi.runLauncherAsNode, false when unset (the CRD's default).
bool launcher_as_node(const CompileState& state) {
  Field flag = state.ml_policy["mpi"]["runLauncherAsNode"];
  return flag && flag.value->is_boolean() && flag.value->get<bool>();
}

/// Upstream's webhook: with runLauncherAsNode, more than one node needs both jobs.
bool check_launcher_as_node(CompileState* state, const TrainerSettings& trainer) {
  if (!launcher_as_node(*state) || !trainer.num_nodes || *trainer.num_nodes < 2) return true;
  if (state->find_job(kMpiLauncherJob) != nullptr && state->find_job(kMpiNodeJob) != nullptr) {
    return true;
  }
  state->trainjob_reader.error(state->trainjob.trainer["numNodes"].path(),
                               "expected 1: the MPI runtime runs its launcher as a node "
                               "(runLauncherAsNode) but lacks a replicated job \"launcher\" or "
                               "\"node\", so there is nowhere to put more nodes");
  return false;
}

bool size_mpi(CompileState* state, const TrainerSettings& trainer) {
  bool ok = check_reserved_mpi_env(*state);
  ok = check_launcher_as_node(state, trainer) && ok;
  // The launcher keeps mlPolicy.numNodes pods; spec.trainer.numNodes sizes job `node`,
  // one pod less when the launcher is a node too.
  ReplicatedJob* node = state->find_job(kMpiNodeJob);
  if (ok && trainer.num_nodes && node != nullptr) {
    node->count = launcher_as_node(*state) ? std::max<int64_t>(*trainer.num_nodes - 1, 1)
                                           : *trainer.num_nodes;
  }
  return ok;
}

Json ssh_volume(const CompileState& state) {
  Json secret = {{"secretName", mpi_ssh_secret_name(state.trainjob.name)}};
  // Trainer v2.3 sets file modes ssh accepts; earlier releases left the defaults.
  auto item = [&](const char* key, const char* path, int mode) {
    Json entry = {{"key", key}, {"path", path}};
    if (state.dialect.mpi_v2_3) entry["mode"] = mode;
    return entry;
  };
  if (state.dialect.mpi_v2_3) secret["defaultMode"] = 0400;
  secret["items"] = Json::array({item("ssh-privatekey", "id_rsa", 0640),
                                 item("ssh-publickey", "id_rsa.pub", 0644),
                                 item("ssh-publickey", "authorized_keys", 0644)});
  return Json{{"name", kMpiSshVolume}, {"secret", std::move(secret)}};
}

Json hostfile_volume(const CompileState& state) {
  Json items = Json::array({{{"key", "hostfile"}, {"path", "hostfile"}, {"mode", 0444}}});
  return Json{{"name", kMpiHostfileVolume},
              {"configMap", {{"name", mpi_hostfile_name(state.trainjob.name)}, {"items", items}}}};
}

/// Upstream upserts the OMPI variables before spec.trainer.env, so a user's value of one
/// (accepted before v2.3) stays, where the policy put it.
void edit_launcher_container(const CompileState& state, const MpiSettings& settings, Json* node) {
  upsert_by_key(node, "volumeMounts", {{"name", kMpiHostfileVolume}, {"mountPath", kHostfileDir}},
                "mountPath");
  const std::string hostfile = std::string(kHostfileDir) + "/hostfile";
  const std::string slots = std::to_string(settings.slots);
  const char* ssh_args = "-o ConnectionAttempts=10";
  Json env = Json::array();
  auto add = [&env](const char* name, const std::string& value) {
    env.push_back(Json{{"name", name}, {"value", value}});
  };
  add(kOmpiHostfileEnv, hostfile);
  add(kOmpiKeepFqdnEnv, "true");
  add(kOmpiSlotsEnv, slots);
  add(kOmpiRshArgsEnv, ssh_args);
  if (state.dialect.mpi_v2_4) {
    // Open MPI 5 reads only these (Trainer#4028). keep_fqdn is false, not the ORTE value: the
    // hostfile's short `<pod>.<service>` names never equal the name PRTE resolves for its own
    // host, so with true a runLauncherAsNode launcher takes itself for a remote host and
    // ssh-es to itself.
    add(kPrteHostfileEnv, hostfile);
    add(kPrteKeepFqdnEnv, "false");
    add(kPrteSlotsEnv, slots);
    add(kPrteSshArgsEnv, ssh_args);
  }
  Field trainer_env = state.trainjob.trainer["env"];
  place_policy_env(node, env, trainer_env ? *trainer_env.value : Json());
}

void edit_mpi_job(const CompileState& state, const MpiSettings& settings, ReplicatedJob* job) {
  Json& pod_spec = job->pod_spec();
  upsert_by_key(&pod_spec, "volumes", ssh_volume(state), "name");
  bool launcher = job->name == kMpiLauncherJob;
  if (launcher) upsert_by_key(&pod_spec, "volumes", hostfile_volume(state), "name");
  Json* node = find_container(&pod_spec, kNodeName);
  if (node == nullptr) return;
  upsert_by_key(node, "volumeMounts",
                {{"name", kMpiSshVolume}, {"mountPath", settings.ssh_mount_path}}, "mountPath");
  if (launcher) edit_launcher_container(state, settings, node);
}

/// Sets `field` of the `node` container of `job` to `value`, or to nothing when it is null.
void set_node_field(ReplicatedJob* job, const char* field, const Json& value) {
  Json* node = job == nullptr ? nullptr : find_container(&job->pod_spec(), kNodeName);
  if (node == nullptr) return;
  if (!value.is_null()) {
    (*node)[field] = value;
  } else {
    node->erase(field);
  }
}

/// Trainer v2.4 (#4301): spec.trainer.image runs on both jobs, so the launcher and the nodes
/// ship the same Open MPI, and command and args are the launcher's alone. A node job that
/// carries the trainer label (how users changed the nodes' image before) keeps its sshd.
void place_trainer_v2_4(CompileState* state, const PolicyBuildInput& input) {
  if (!state->dialect.mpi_v2_4 || !input.trainer.present) return;
  const Json& trainer = *state->trainjob.trainer.value;
  ReplicatedJob* launcher = state->find_job(kMpiLauncherJob);
  ReplicatedJob* node_job = state->find_job(kMpiNodeJob);
  if (node_job != nullptr && state->trainer_job() == node_job) {
    for (const char* field : {"command", "args"}) {
      set_node_field(node_job, field, json_member(input.runtime_node, field));
      const Json& value = json_member(trainer, field);
      if (!value.is_null()) set_node_field(launcher, field, value);
    }
  }
  const Json& image = json_member(trainer, "image");
  if (image.is_null()) return;
  set_node_field(launcher, "image", image);
  set_node_field(node_job, "image", image);
}

bool build_mpi(CompileState* state, const PolicyBuildInput& input) {
  const TrainerSettings& trainer = input.trainer;
  MpiSettings settings = read_mpi_settings(state, trainer);
  ReplicatedJob* node_job = state->find_job(kMpiNodeJob);
  // spec.trainer's env and resources reach job `node` too when the launcher is a node.
  if (settings.launcher_as_node && node_job != nullptr) {
    Json* node = find_container(&node_job->pod_spec(), kNodeName);
    if (node != nullptr) apply_trainer_env_and_resources(*state, trainer, node);
  }
  for (ReplicatedJob& job : state->replicated_jobs) {
    if (job.name == kMpiNodeJob || job.name == kMpiLauncherJob)
      edit_mpi_job(*state, settings, &job);
  }
  // JobSet's successPolicy ends the node pods once the launcher completes.
  if (state->render_target == RenderTarget::kJobs) wrap_mpi_node_command(state);
  add_mpi_ssh_secret(state);
  state->extra_objects.push_back(mpi_hostfile_config_map(*state, settings));
  return true;
}

}  // namespace

bool check_mpi_runtime(const FieldReader& rt, const Field& mpi, bool compiling) {
  if (!mpi) return true;
  if (!rt.is_object(mpi)) return false;
  bool ok = true;
  Field num_proc = mpi["numProcPerNode"];
  if (num_proc) {
    std::optional<int64_t> value = rt.integer(num_proc);
    if (value && *value < 1) rt.mismatch(num_proc, "an integer ≥ 1");
    ok = value && *value >= 1;
  }
  if (mpi["sshAuthMountPath"]) ok = rt.string(mpi["sshAuthMountPath"]) && ok;
  if (mpi["runLauncherAsNode"]) ok = rt.boolean(mpi["runLauncherAsNode"]) && ok;
  Field implementation = mpi["mpiImplementation"];
  if (implementation && !rt.string(implementation)) return false;
  if (implementation && *implementation.value != kMpiOpenMpi) {
    std::string message =
        "expected OpenMPI, the only MPI implementation Kubeflow Trainer runs (a TrainJob on "
        "this runtime cannot compile), found " +
        describe_value(*implementation.value);
    // Like upstream, the runtime is accepted; a TrainJob on it cannot be compiled.
    if (compiling) {
      rt.error(implementation.path(), message);
      ok = false;
    } else {
      rt.warning(implementation.path(), message);
    }
  }
  return ok;
}

MpiSettings read_mpi_settings(CompileState* state, const TrainerSettings& trainer) {
  MpiSettings settings;
  const Field mpi = state->ml_policy["mpi"];
  if (mpi["mpiImplementation"]) settings.implementation = *mpi["mpiImplementation"].value;
  if (mpi["sshAuthMountPath"]) settings.ssh_mount_path = *mpi["sshAuthMountPath"].value;
  settings.launcher_as_node = launcher_as_node(*state);
  int64_t runtime_slots = mpi["numProcPerNode"] ? mpi["numProcPerNode"].value->get<int64_t>() : 1;
  settings.slots = runtime_slots;
  if (trainer.num_proc_per_node.is_number_integer()) {
    settings.slots = trainer.num_proc_per_node.get<int64_t>();
  } else if (runtime_slots == 1) {
    // One process per GPU when the runtime leaves the default.
    const Json& resources =
        trainer.resources.is_object() ? trainer.resources : runtime_node_resources(state);
    int64_t gpus = gpu_count(resources);
    if (gpus > 1) settings.slots = gpus;
  }
  return settings;
}

// Upstream refuses the OMPI_* names only from v2.3 on, so the check is the plugin's own.
const PolicyPlugin kMpiPlugin = {"mpi", {}, "", nullptr, size_mpi, build_mpi, place_trainer_v2_4};

}  // namespace trainjob
