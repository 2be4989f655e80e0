// XGBoostJob: one Master and Workers, Rabit's tracker address and ranks in the env.
#include "legacy/legacy_job.h"
#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

int64_t replica_port(const LegacyJob& job, const char* type) {
  const LegacyReplica* replica = job.replica(type);
  if (replica == nullptr) return job.kind->port;
  return legacy_port(*replica, job.kind->default_container, job.kind->port_name, job.kind->port);
}

Json xgboost_env(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  const LegacyReplica* master = job.replica(kReplicaMaster);
  int64_t masters = master != nullptr ? master->replicas : 0;
  int64_t total = job.total_replicas();
  int64_t rank = replica.type == kReplicaWorker ? index + masters : index;
  Json env =
      Json::array({legacy_env("MASTER_PORT", std::to_string(replica_port(job, kReplicaMaster))),
                   legacy_env("MASTER_ADDR", job.name + "-master-0"),
                   legacy_env("WORLD_SIZE", std::to_string(total)),
                   legacy_env("RANK", std::to_string(rank)), legacy_env("PYTHONUNBUFFERED", "1")});
  if (total > 1) {
    env.push_back(legacy_env("WORKER_PORT", std::to_string(replica_port(job, kReplicaWorker))));
    std::string addresses;
    for (int64_t i = 0; i < total - 1; ++i) {
      addresses += (i == 0 ? "" : ",") + job.name + "-worker-" + std::to_string(i);
    }
    env.push_back(legacy_env("WORKER_ADDRS", addresses));
  }
  return env;
}

void check_xgboost(const LegacyJob& job, const FieldReader& reader) {
  const LegacyReplica* master = job.replica(kReplicaMaster);
  if (master == nullptr) {
    reader.error(std::string("spec.") + job.kind->replica_specs_field,
                 "an XGBoostJob needs a Master replica type (Rabit's tracker): add Master "
                 "with replicas: 1");
  } else {
    check_master_replicas_one(job, *master, reader);
  }
}

bool xgboost_master_role(const LegacyJob&, const LegacyReplica& replica, int64_t) {
  return replica.type == kReplicaMaster;
}

Json xgboost_success(const LegacyJob&) {
  return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({"master"})}};
}

}  // namespace

const LegacyKind kXGBoostJobKind = {
    kKubeflowV1ApiVersion,
    "XGBoostJob",
    "xgbReplicaSpecs",
    {kReplicaMaster, kReplicaWorker},
    "xgboost",
    "xgboostjob-port",
    9999,
    "Never",
    "xgboostjob-controller",
    "xgboost-distributed",
    LegacyEnvTarget::kAllContainers,
    check_xgboost,
    xgboost_env,
    xgboost_master_role,
    xgboost_success,
    /*extra_objects=*/nullptr,
    /*compile=*/nullptr,
    /*names_namespace=*/false,
    /*gang_rules=*/LegacyGangRules::kTrainingOperator,
    /*folds_replica_case=*/false,
    /*checks_managed_by=*/true,
    /*operator_env=*/
    {"PYTHONUNBUFFERED", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "WORKER_PORT",
     "WORKER_ADDRS"},
    /*trainer_env_note=*/
    "the xgboost-distributed runtime sets DMLC_TRACKER_URI, DMLC_TRACKER_PORT, DMLC_TASK_ID "
    "and DMLC_NUM_WORKER instead of the operator's MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE "
    "and WORKER_ADDRS: a program that reads those must read these",
};

}  // namespace trainjob
