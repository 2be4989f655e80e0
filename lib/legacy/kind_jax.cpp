// JAXJob: Workers only; worker-0 coordinates jax.distributed.initialize.
#include "legacy/legacy_job.h"
#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

Json jax_env(const LegacyJob& job, const LegacyReplica& replica, int64_t index) {
  int64_t port =
      legacy_port(replica, job.kind->default_container, job.kind->port_name, job.kind->port);
  if (const LegacyReplica* worker = job.replica(kReplicaWorker)) {
    port = legacy_port(*worker, job.kind->default_container, job.kind->port_name, job.kind->port);
  }
  return Json::array({legacy_env("PYTHONUNBUFFERED", "1"),
                      legacy_env("COORDINATOR_PORT", std::to_string(port)),
                      legacy_env("COORDINATOR_ADDRESS", job.name + "-worker-0"),
                      legacy_env("NUM_PROCESSES", std::to_string(job.total_replicas())),
                      legacy_env("PROCESS_ID", std::to_string(index))});
}

/// The operator gives job-role master to index 0 of every replica type (JAX has only Worker).
bool jax_master_role(const LegacyJob&, const LegacyReplica&, int64_t index) {
  return index == 0;
}

Json jax_success(const LegacyJob&) {
  return Json{{"operator", "All"}, {"targetReplicatedJobs", Json::array({"worker"})}};
}

}  // namespace

const LegacyKind kJAXJobKind = {
    kKubeflowV1ApiVersion,
    "JAXJob",
    "jaxReplicaSpecs",
    {kReplicaWorker},
    "jax",
    "jaxjob-port",
    6666,
    "Never",
    "jaxjob-controller",
    "jax-distributed",
    LegacyEnvTarget::kAllContainers,
    nullptr,
    jax_env,
    jax_master_role,
    jax_success,
    /*extra_objects=*/nullptr,
    /*compile=*/nullptr,
    /*names_namespace=*/false,
    /*gang_rules=*/LegacyGangRules::kTrainingOperator,
    /*folds_replica_case=*/false,
    /*checks_managed_by=*/false,
    /*operator_env=*/
    {"PYTHONUNBUFFERED", "COORDINATOR_PORT", "COORDINATOR_ADDRESS", "NUM_PROCESSES", "PROCESS_ID"},
    /*trainer_env_note=*/
    "the jax-distributed runtime sets JAX_COORDINATOR_ADDRESS (with its port), "
    "JAX_NUM_PROCESSES and JAX_PROCESS_ID instead of the operator's COORDINATOR_ADDRESS, "
    "COORDINATOR_PORT, NUM_PROCESSES and PROCESS_ID: a program that reads those must read these",
};

}  // namespace trainjob
