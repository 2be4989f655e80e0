// The Training Operator v1 kinds (PyTorchJob, TFJob, ...): one LegacyKind each, in one
// table. A kind says its constants (replica types, default container and port, operator
// name, the Trainer runtime that runs it) and its hooks (webhook rules, env per pod, success
// rule); legacy_compile.cpp does the rest for every kind alike, and `convert` reads the same
// table.
#ifndef TRAINJOB_LEGACY_LEGACY_KINDS_H_
#define TRAINJOB_LEGACY_LEGACY_KINDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/json.h"

namespace trainjob {

struct LegacyJob;
struct LegacyReplica;
class FieldReader;
struct CompileOptions;

/// Which containers of a pod the kind's env goes into.
enum class LegacyEnvTarget {
  kAllContainers,     ///< PyTorch, XGBoost, Paddle, JAX
  kDefaultContainer,  ///< TF: the first container named like the default container
};

/// Whose rules make the PodGroup of a gang-scheduled job (legacy_pod_group).
enum class LegacyGangRules {
  kTrainingOperator,  ///< the Training Operator v1.9, every kubeflow.org/v1 kind
  kMpiOperator,       ///< mpi-operator, the kubeflow.org/v2beta1 MPIJob
};

struct LegacyKind {
  const char* api_version;                      ///< `kubeflow.org/v1`
  const char* kind;                             ///< `PyTorchJob`
  const char* replica_specs_field;              ///< `pytorchReplicaSpecs`
  std::vector<std::string_view> replica_types;  ///< as the keys are spelt, in output order
  const char* default_container;                ///< `pytorch`
  const char* port_name;                        ///< `pytorchjob-port`
  int64_t port = 0;                             ///< 23456
  const char* default_restart_policy;           ///< `OnFailure`
  const char* operator_name;                    ///< `pytorchjob-controller`
  /// The stock Trainer v2 runtime `convert` moves the kind to (`torch-distributed`); null
  /// when no Trainer runtime runs it.
  const char* trainer_runtime;
  LegacyEnvTarget env_target = LegacyEnvTarget::kAllContainers;

  /// The kind's webhook rules beyond the common ones (which the compiler checks for every
  /// kind), reported through `reader` at the user's fields.
  void (*check)(const LegacyJob& job, const FieldReader& reader) = nullptr;
  /// The env the operator appends to the pod `index` of `replica`, in its order.
  Json (*pod_env)(const LegacyJob& job, const LegacyReplica& replica, int64_t index) = nullptr;
  /// True for the pod that gets `training.kubeflow.org/job-role: master`.
  bool (*is_master_role)(const LegacyJob& job, const LegacyReplica& replica,
                         int64_t index) = nullptr;
  /// The kind's success rule as the success-policy annotation's JSON (see
  /// kSuccessPolicyAnnotation): which Jobs must succeed for the job to succeed.
  Json (*success_policy)(const LegacyJob& job) = nullptr;
  /// Objects besides the Jobs and Services (none for the kinds here); may be null.
  std::vector<Json> (*extra_objects)(const LegacyJob& job) = nullptr;
  /// A kind whose objects are not one Service and one Job per pod (the MPIJobs) compiles
  /// itself: compile_legacy_job hands the document over, and the hooks above go unused.
  std::vector<Json> (*compile)(const Document& document, const CompileOptions& options,
                               Diagnostics* diagnostics) = nullptr;
  /// The pods' env names the job's namespace (TF_CONFIG's addresses): see
  /// state_baked_namespace.
  bool names_namespace = false;
  LegacyGangRules gang_rules = LegacyGangRules::kTrainingOperator;
  /// Replica-type keys are read ignoring case (`worker` is `Worker`). Only the TFJob's:
  /// its webhook does not check the keys and the operator's defaulting folds them; the
  /// other kinds' webhooks refuse a key not spelt exactly as the type.
  bool folds_replica_case = false;
  /// The webhook refuses a runPolicy.managedBy other than the operator's and MultiKueue's:
  /// every kind's but the JAXJob's (its webhook does not read the runPolicy) and the v1
  /// MPIJob's (it has no webhook).
  bool checks_managed_by = false;
  /// The env the operator writes after the user's, so that its value wins: `convert` drops
  /// a user's own (the kinds it moves to a Trainer runtime).
  std::vector<const char*> operator_env = {};
  /// What the Trainer runtime sets instead of the operator's variables, for programs that
  /// read them by name (`convert` warns); null when the names carry over.
  const char* trainer_env_note = nullptr;
};

/// The kind of `api_version`/`kind`, or null when it is not one we compile.
const LegacyKind* find_legacy_kind(std::string_view api_version, std::string_view kind);
/// True for a document of a kind we compile (find_legacy_kind). Kubeflow's other kinds of
/// kubeflow.org/v1 (Notebook, Profile, ...) pass through; training kinds under versions no
/// release serves are refused before (check_api_kind).
bool is_legacy_document(const Document& document);
/// "PyTorchJob, TFJob, ..." for messages.
std::string supported_legacy_kinds();
/// Every kind we compile, in the table's order.
std::vector<const LegacyKind*> all_legacy_kinds();
/// The container the operator `operator_name` (a pod's operator-name label) treats as the
/// default one (`pytorch`), as `logs` picks it; empty for the MPI operators, which pick
/// none by name, and for an operator not in the table.
std::string default_container_of_operator(std::string_view operator_name);

// The kinds, each defined in its own kind_*.cpp.
extern const LegacyKind kPyTorchJobKind;
extern const LegacyKind kTFJobKind;
extern const LegacyKind kXGBoostJobKind;
extern const LegacyKind kPaddleJobKind;
extern const LegacyKind kJAXJobKind;
extern const LegacyKind kMPIJobV1Kind;       ///< kind_mpi_v1.cpp
extern const LegacyKind kMPIJobV2beta1Kind;  ///< kind_mpi_v2beta1.cpp (mpi-operator)

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_LEGACY_KINDS_H_
