// What the two MPIJob kinds share: reading the job (two replica types, their own
// defaults), the webhook rules common to both, and the pieces of the objects they both
// make (ConfigMap `J-config`, the Jobs of the launcher and of each worker). The kinds
// themselves are kind_mpi_v1.cpp (Training Operator) and kind_mpi_v2beta1.cpp
// (mpi-operator); docs/legacy-kinds.md says what each renders and why.
#ifndef TRAINJOB_LEGACY_MPI_LEGACY_JOB_H_
#define TRAINJOB_LEGACY_MPI_LEGACY_JOB_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "legacy/legacy_job.h"
#include "legacy/legacy_run_policy.h"
#include "legacy/mpi_legacy_files.h"
#include "load/document.h"
#include "load/json.h"
#include "model/field.h"
#include "render/compile.h"

namespace trainjob {

/// An MPIJob read with its operator's defaulting. `base.replicas` holds the Launcher and,
/// when given, the Worker (in that order).
struct MpiLegacyJob {
  LegacyJob base;
  const LegacyReplica* launcher = nullptr;
  const LegacyReplica* worker = nullptr;  ///< null when there is no Worker spec
  int64_t workers = 0;                    ///< Worker replicas (0 without a Worker)
  int64_t slots = 1;                      ///< slotsPerWorker

  /// The hosts in the operators' order (`launcher_first` as the kind decides).
  MpiHosts hosts(bool launcher_first) const;
};

/// How a kind reads its MPIJob: the default restartPolicy of each replica type and the
/// values it accepts. (Replica keys are matched exactly for both kinds.)
struct MpiReadRules {
  const char* launcher_restart_policy = "Never";
  const char* worker_restart_policy = "Never";
  /// The restartPolicy values the kind accepts, for the message: "Never or OnFailure".
  std::vector<std::string> restart_policies;
};

/// Reads an MPIJob of `kind`; false when it cannot be compiled (errors reported).
bool read_mpi_legacy_job(const Document& document, const LegacyKind& kind,
                         const MpiReadRules& rules, const CompileOptions& options,
                         MpiLegacyJob* job, Diagnostics* diagnostics);

/// How both kinds' compile functions start: reads the MPIJob, states its namespace (the
/// hostfile names it), and reads its gang (`*gang`) and warns of the runPolicy fields it
/// ignores. False only when there is no Launcher to compile; other errors are reported and
/// end the compilation after the kind's own checks, so that one run reports them all.
bool start_mpi_legacy_compile(const Document& document, const LegacyKind& kind,
                              const MpiReadRules& rules, const CompileOptions& options,
                              MpiLegacyJob* job, LegacyGang* gang, Diagnostics* diagnostics);

/// How both end: after the kind's own objects (`out`), the PodGroup of a gang, the launcher's
/// Job and one Job per worker (`worker_job(i)`), each object's keys sorted.
std::vector<Json> finish_mpi_legacy_objects(const MpiLegacyJob& job, LegacyGang gang,
                                            std::vector<Json> out, Json launcher,
                                            const std::function<Json(int64_t)>& worker_job);

/// `J-config` with `data` (hostfile and the scripts), labelled `app: J` as both operators do.
Json mpi_config_map(const MpiLegacyJob& job, Json data);
/// metadata of an object of the job: name, namespace, `labels` plus ownership labels.
Json mpi_object_metadata(const MpiLegacyJob& job, const std::string& name, Json labels);

/// A Job of one pod named `name` for `replica`: the pod template with `labels` added (also
/// on the Job), the replica's restartPolicy, and runPolicy as the other legacy kinds map it;
/// the annotations that tell the client side the kind, its success rule and the replica
/// count.
Json mpi_pod_job(const MpiLegacyJob& job, const LegacyReplica& replica, const std::string& name,
                 const Json& labels, Json pod_template);

/// The first container of a pod template (the operators' "main" container); null when none.
Json* mpi_main_container(Json* pod_template);
/// Adds a volume to the pod spec and its mount to container 0. Json is an ordered map kept
/// in a vector: adding `volumes` moves the containers, so pointers into them go stale.
void mpi_add_volume(Json* pod_template, Json volume, Json mount);

/// The `kubectl-trainjob/success-policy` of both kinds: the launcher decides.
std::string mpi_success_policy();

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_MPI_LEGACY_JOB_H_
