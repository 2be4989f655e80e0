// TFJob: Chief (or its alias Master), PS, Worker and Evaluator; TF_CONFIG in the
// tensorflow container, written byte for byte as the operator's Go encoder writes it.
#include <algorithm>
#include <vector>

#include "legacy/legacy_job.h"
#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// `J-r-i.N.svc:port`: the address of one pod in the cluster spec.
std::string address(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  int64_t port =
      legacy_port(replica, job.kind->default_container, job.kind->port_name, job.kind->port);
  return job.name + "-" + replica.lower + "-" + std::to_string(index) + "." + job.dns_namespace() +
         ".svc:" + std::to_string(port);
}

/// A JSON string; the names and addresses here hold only [a-z0-9.:-], which Go writes as is.
std::string quoted(const std::string& text) {
  return Json(text).dump();
}

std::string address_list(const LegacyJob& job, const LegacyReplica& replica) {
  std::string out = "[";  // a type of 0 replicas is `[]`: the operator makes an empty slice
  for (int64_t i = 0; i < replica.replicas; ++i)
    out += (i == 0 ? "" : ",") + quoted(address(job, replica, i));
  return out + "]";
}

std::string task(const LegacyReplica& replica, int64_t index) {
  return "\"task\":{\"type\":" + quoted(replica.lower) + ",\"index\":" + std::to_string(index) +
         "}";
}

/// The normal layout: every replica type's addresses, keys sorted as Go sorts map keys.
std::string dense_config(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  std::vector<const LegacyReplica*> sorted;
  for (const LegacyReplica& each : job.replicas)
    sorted.push_back(&each);
  std::sort(sorted.begin(), sorted.end(),
            [](const LegacyReplica* a, const LegacyReplica* b) { return a->lower < b->lower; });
  std::string cluster;
  for (const LegacyReplica* each : sorted) {
    cluster += (cluster.empty() ? "" : ",") + quoted(each->lower) + ":" + address_list(job, *each);
  }
  return "{\"cluster\":{" + cluster + "}," + task(replica, index) + ",\"environment\":\"cloud\"}";
}

/// enableDynamicWorker: a worker sees itself and every PS, a PS only itself, others nothing.
std::string sparse_config(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  std::string workers = "{}";
  std::string ps = "[]";
  if (replica.type == kReplicaWorker) {
    workers =
        "{" + quoted(std::to_string(index)) + ":" + quoted(address(job, replica, index)) + "}";
    const LegacyReplica* servers = job.replica(kReplicaPS);
    if (servers != nullptr && servers->replicas > 0) ps = address_list(job, *servers);
  } else if (replica.type == kReplicaPS) {
    ps = "[" + quoted(address(job, replica, index)) + "]";
  }
  return "{\"cluster\":{\"worker\":" + workers + ",\"ps\":" + ps + "}," + task(replica, index) +
         "}";
}

Json tensorflow_env(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  if (job.total_replicas() == 1) return Json::array();  // not distributed: no TF_CONFIG
  const Json& dynamic = json_member(job.spec, "enableDynamicWorker");
  bool sparse = dynamic.is_boolean() && dynamic.get<bool>();
  std::string config =
      sparse ? sparse_config(job, replica, index) : dense_config(job, replica, index);
  return Json::array({legacy_env("TF_CONFIG", config)});
}

void check_tensorflow(const LegacyJob& job, const FieldReader& reader) {
  const LegacyReplica* chief = job.replica(kReplicaChief);
  const LegacyReplica* master = job.replica(kReplicaMaster);
  if (chief != nullptr && master != nullptr) {
    reader.error(master->path, "a TFJob has at most one Chief or Master: found both");
  }
  for (const LegacyReplica* leader : {chief, master}) {
    if (leader != nullptr && leader->replicas > 1) {
      reader.error(leader->path + ".replicas", "expected at most 1 " + leader->type +
                                                   " replica, found " +
                                                   std::to_string(leader->replicas));
    }
  }
}

bool tensorflow_master_role(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  if (job.replica(kReplicaChief) != nullptr || job.replica(kReplicaMaster) != nullptr)
    return replica.type == kReplicaChief || replica.type == kReplicaMaster;
  return replica.type == kReplicaWorker && index == 0;
}

Json tensorflow_success(const LegacyJob& job) {
  for (const char* leader : {kReplicaChief, kReplicaMaster}) {
    if (const LegacyReplica* replica = job.replica(leader)) {
      return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({replica->lower})}};
    }
  }
  if (string_member_ref(job.spec, "successPolicy") == "AllWorkers")
    return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({"worker"})}};
  return Json{{"operator", "All"}, {"targetJobs", Json::array({job.name + "-worker-0"})}};
}

}  // namespace

const LegacyKind kTFJobKind = {
    kKubeflowV1ApiVersion,
    "TFJob",
    "tfReplicaSpecs",
    {kReplicaChief, kReplicaMaster, kReplicaPS, kReplicaWorker, "Evaluator"},
    "tensorflow",
    "tfjob-port",
    2222,
    "Never",
    "tfjob-controller",
    nullptr,
    LegacyEnvTarget::kDefaultContainer,
    check_tensorflow,
    tensorflow_env,
    tensorflow_master_role,
    tensorflow_success,
    /*extra_objects=*/nullptr,
    /*compile=*/nullptr,
    /*names_namespace=*/true,
    /*gang_rules=*/LegacyGangRules::kTrainingOperator,
    /*folds_replica_case=*/true,
    /*checks_managed_by=*/true,
};

}  // namespace trainjob
