// PaddleJob: collective mode (Workers only, worker-0 is the rendezvous) or parameter-server
// mode (a Master is the rendezvous); the rendezvous pod names itself by its own pod IP.
#include "legacy/legacy_job.h"
#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The downward-API variable the rendezvous pod's PADDLE_MASTER expands.
Json pod_ip_variable() {
  return Json{{"name", "POD_IP_DUMMY"},
              {"valueFrom", {{"fieldRef", {{"fieldPath", "status.podIP"}}}}}};
}

Json paddle_env(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  Json env =
      Json::array({legacy_env("PYTHONUNBUFFERED", "1"), legacy_env("PADDLE_JOB_ID", job.name),
                   legacy_env("PADDLE_NNODES", std::to_string(job.total_replicas()))});
  bool ps_mode = job.replica(kReplicaMaster) != nullptr;
  const LegacyReplica* rendezvous = job.replica(ps_mode ? kReplicaMaster : kReplicaWorker);
  int64_t port =
      legacy_port(*rendezvous, job.kind->default_container, job.kind->port_name, job.kind->port);
  bool is_rendezvous = index == 0 && (!ps_mode || replica.type == kReplicaMaster);
  if (is_rendezvous) {
    env.push_back(pod_ip_variable());
    env.push_back(legacy_env("PADDLE_MASTER", "$(POD_IP_DUMMY):" + std::to_string(port)));
  } else {
    env.push_back(legacy_env("PADDLE_MASTER",
                             job.name + "-" + rendezvous->lower + "-0:" + std::to_string(port)));
  }
  if (ps_mode) {
    env.push_back(legacy_env(
        replica.type == kReplicaMaster ? "PADDLE_SERVER_NUM" : "PADDLE_TRAINER_NUM", "1"));
  }
  return env;
}

bool paddle_master_role(const LegacyJob&, const LegacyReplica& replica, int64_t) {
  return replica.type == kReplicaMaster;
}

Json paddle_success(const LegacyJob& job) {
  const char* target = job.replica(kReplicaMaster) != nullptr ? "master" : "worker";
  return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({target})}};
}

}  // namespace

const LegacyKind kPaddleJobKind = {
    kKubeflowV1ApiVersion,
    "PaddleJob",
    "paddleReplicaSpecs",
    {kReplicaMaster, kReplicaWorker},
    "paddle",
    "master",
    36543,
    "OnFailure",
    "paddlejob-controller",
    nullptr,
    LegacyEnvTarget::kAllContainers,
    nullptr,
    paddle_env,
    paddle_master_role,
    paddle_success,
    /*extra_objects=*/nullptr,
    /*compile=*/nullptr,
    /*names_namespace=*/false,
    /*gang_rules=*/LegacyGangRules::kTrainingOperator,
    /*folds_replica_case=*/false,
    /*checks_managed_by=*/true,
};

}  // namespace trainjob
