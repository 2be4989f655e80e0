// PyTorchJob: Master (at most one) and Workers; torchrun's PET_* variables and the
// env:// variables (MASTER_ADDR, WORLD_SIZE, RANK) as the operator's v1.9 sets them.
#include <cstdlib>

#include "k8s/container_rules.h"
#include "legacy/legacy_job.h"
#include "load/field_path.h"
#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// nprocPerNode as WORLD_SIZE counts it: its integer value, else 1 (auto, cpu, gpu).
int64_t nproc_as_integer(const std::string& nproc) {
  if (nproc.empty() || nproc.size() > 9) return 1;
  for (char c : nproc) {
    if (c < '0' || c > '9') return 1;
  }
  return std::strtoll(nproc.c_str(), nullptr, 10);
}

std::string integer_text(const Json& value) {
  return value.is_number_integer() ? std::to_string(value.get<int64_t>()) : value.dump();
}

void add_master_env(const LegacyJob& job, const LegacyReplica& replica, int64_t index, Json* env) {
  const LegacyReplica* master = job.replica(kReplicaMaster);
  if (master == nullptr) return;
  std::string port = std::to_string(
      legacy_port(*master, job.kind->default_container, job.kind->port_name, job.kind->port));
  std::string address = job.name + "-master-0";
  env->push_back(legacy_env("MASTER_PORT", port));
  env->push_back(legacy_env("PET_MASTER_PORT", port));
  env->push_back(legacy_env("MASTER_ADDR", address));
  env->push_back(legacy_env("PET_MASTER_ADDR", address));
  int64_t world = job.total_replicas() * nproc_as_integer(job.nproc_per_node);
  int64_t rank = replica.type == kReplicaWorker ? index + 1 : index;
  env->push_back(legacy_env("WORLD_SIZE", std::to_string(world)));
  env->push_back(legacy_env("RANK", std::to_string(rank)));
  env->push_back(legacy_env("PET_NODE_RANK", std::to_string(rank)));
}

/// The torchrun elastic variables, in the order the Training Operator sets them.
void add_elastic_env(const LegacyJob& job, Json* env) {
  const Json& policy = job.elastic_policy;
  const LegacyReplica* worker = job.replica(kReplicaWorker);
  std::string host = string_member(policy, "rdzvHost", job.name + "-worker-0");
  const Json& rdzv_port = json_member(policy, "rdzvPort");
  int64_t port = worker != nullptr ? legacy_port(*worker, job.kind->default_container,
                                                 job.kind->port_name, job.kind->port)
                                   : job.kind->port;
  std::string endpoint_port =
      rdzv_port.is_number_integer() ? integer_text(rdzv_port) : std::to_string(port);
  env->push_back(legacy_env("PET_RDZV_ENDPOINT", host + ":" + endpoint_port));
  env->push_back(legacy_env("PET_RDZV_BACKEND", string_member(policy, "rdzvBackend", "c10d")));
  env->push_back(legacy_env("PET_NNODES", integer_text(json_member(policy, "minReplicas")) + ":" +
                                              integer_text(json_member(policy, "maxReplicas"))));
  if (json_member(policy, "maxRestarts").is_number_integer())
    env->push_back(legacy_env("PET_MAX_RESTARTS", integer_text(policy["maxRestarts"])));
  if (json_member(policy, "nProcPerNode").is_number_integer())
    env->push_back(legacy_env("PET_NPROC_PER_NODE", integer_text(policy["nProcPerNode"])));
  if (!string_member_ref(policy, "rdzvId").empty())
    env->push_back(legacy_env("PET_RDZV_ID", string_member_ref(policy, "rdzvId")));
  const Json& conf = json_member(policy, "rdzvConf");
  if (conf.is_array() && !conf.empty()) {
    std::string joined;
    for (const Json& pair : conf) {
      joined += (joined.empty() ? "" : ",") + string_member(pair, "key") + "=" +
                string_member(pair, "value");
    }
    env->push_back(legacy_env("PET_RDZV_CONF", joined));
  }
  const Json& standalone = json_member(policy, "standalone");
  if (standalone.is_boolean() && standalone.get<bool>())
    env->push_back(legacy_env("PET_STANDALONE", ""));
}

Json pytorch_env(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  Json env = Json::array({legacy_env("PYTHONUNBUFFERED", "1")});
  add_master_env(job, replica, index, &env);
  if (!job.nproc_per_node.empty())
    env.push_back(legacy_env("PET_NPROC_PER_NODE", job.nproc_per_node));
  if (job.elastic_policy.is_object()) {
    add_elastic_env(job, &env);
  } else {
    env.push_back(legacy_env("PET_NNODES", std::to_string(job.total_replicas())));
  }
  return env;
}

/// Without a Master the operator sets no MASTER_ADDR, and without an elasticPolicy no
/// rendezvous endpoint: nothing tells the pods where to meet.
void warn_pytorch_no_rendezvous(const LegacyJob& job, const FieldReader& reader) {
  if (job.replica(kReplicaMaster) != nullptr || job.elastic_policy.is_object()) return;
  reader.warning("spec.pytorchReplicaSpecs",
                 "no Master replica and no elasticPolicy: the operator sets no MASTER_ADDR, "
                 "MASTER_PORT, RANK or WORLD_SIZE, so torch.distributed's env:// "
                 "initialisation fails in every pod; add a Master replica type (replicas: 1) "
                 "or an elasticPolicy");
}

/// torchrun --nproc_per_node=N over more processes than the container's GPUs.
void warn_pytorch_procs_over_gpus(const LegacyReplica& replica, const Json& container, size_t i,
                                  const FieldReader& reader) {
  std::optional<GpuRequest> gpus = container_gpus(container);
  std::optional<TorchrunNodes> procs = torchrun_fixed_procs(container_words(container));
  if (!gpus || !procs) return;
  std::string problem = procs_over_gpus_problem("torchrun " + procs->text, procs->nodes, *gpus);
  if (problem.empty()) return;
  std::string path = field_index(replica.path + ".template.spec.containers", i);
  auto [list, index] = container_word_field(container, procs->word);
  reader.warning(field_index(path + "." + list, index),
                 problem + "; set --nproc_per_node=" + std::to_string(gpus->count) +
                     ", or request " + std::to_string(procs->nodes) + " " + gpus->resource);
}

/// torchrun's own --nnodes wins over the operator's PET_NNODES.
void warn_pytorch_torchrun_nodes(const LegacyJob& job, const FieldReader& reader) {
  int64_t nodes = job.total_replicas();
  for (const LegacyReplica& replica : job.replicas) {
    const Json& containers = json_member(json_member(replica.pod_template, "spec"), "containers");
    if (!containers.is_array()) continue;
    for (size_t i = 0; i < containers.size(); ++i) {
      warn_pytorch_procs_over_gpus(replica, containers[i], i, reader);
      std::optional<TorchrunNodes> found = torchrun_fixed_nodes(container_words(containers[i]));
      if (!found || found->nodes == nodes) continue;
      std::string path = field_index(replica.path + ".template.spec.containers", i);
      auto [list, index] = container_word_field(containers[i], found->word);
      reader.warning(field_index(path + "." + list, index),
                     torchrun_nodes_problem(*found, nodes) +
                         "; drop the flag (the operator sets PET_NNODES) or make the Master "
                         "and Worker replicas add up to " +
                         std::to_string(found->nodes));
    }
  }
}

void check_pytorch(const LegacyJob& job, const FieldReader& reader) {
  warn_pytorch_no_rendezvous(job, reader);
  warn_pytorch_torchrun_nodes(job, reader);
  if (const LegacyReplica* master = job.replica(kReplicaMaster))
    check_master_replicas_one(job, *master, reader);
  const LegacyReplica* worker = job.replica(kReplicaWorker);
  if (worker != nullptr && worker->replicas < 1) {
    reader.error(worker->path + ".replicas",
                 "expected at least 1 Worker replica, found " + std::to_string(worker->replicas));
  }
  const Json& elastic = json_member(job.spec, "elasticPolicy");
  if (elastic.is_null()) return;
  if (worker == nullptr) {
    reader.error("spec.elasticPolicy", "elasticPolicy needs a Worker replica type");
  }
  if (!json_member(elastic, "nProcPerNode").is_null()) {
    if (!json_member(job.spec, "nprocPerNode").is_null()) {
      reader.error("spec.elasticPolicy.nProcPerNode",
                   "set either spec.nprocPerNode or the deprecated elasticPolicy.nProcPerNode, "
                   "not both");
    } else {
      reader.warning("spec.elasticPolicy.nProcPerNode",
                     "elasticPolicy.nProcPerNode is deprecated: use spec.nprocPerNode");
    }
  }
  if (!json_member(elastic, "metrics").is_null()) {
    reader.warning("spec.elasticPolicy.metrics",
                   "no HorizontalPodAutoscaler is rendered: the Jobs have no scale subresource "
                   "for it to change");
  }
}

bool pytorch_master_role(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  if (job.replica(kReplicaMaster) != nullptr) return replica.type == kReplicaMaster;
  return replica.type == kReplicaWorker && index == 0;
}

Json pytorch_success(const LegacyJob& job) {
  if (job.replica(kReplicaMaster) != nullptr)
    return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({"master"})}};
  const char* op = job.elastic_policy.is_object() ? "Any" : "All";
  return Json{{"operator", op}, {"targetReplicatedJobs", Json::array({"worker"})}};
}

}  // namespace

const LegacyKind kPyTorchJobKind = {
    kKubeflowV1ApiVersion,
    "PyTorchJob",
    "pytorchReplicaSpecs",
    {kReplicaMaster, kReplicaWorker},
    "pytorch",
    "pytorchjob-port",
    23456,
    "OnFailure",
    "pytorchjob-controller",
    "torch-distributed",
    LegacyEnvTarget::kAllContainers,
    check_pytorch,
    pytorch_env,
    pytorch_master_role,
    pytorch_success,
    /*extra_objects=*/nullptr,
    /*compile=*/nullptr,
    /*names_namespace=*/false,
    /*gang_rules=*/LegacyGangRules::kTrainingOperator,
    /*folds_replica_case=*/false,
    /*checks_managed_by=*/true,
    /*operator_env=*/
    {"PYTHONUNBUFFERED", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "PET_MASTER_ADDR",
     "PET_MASTER_PORT", "PET_NODE_RANK", "PET_NNODES", "PET_NPROC_PER_NODE"},
};

}  // namespace trainjob
