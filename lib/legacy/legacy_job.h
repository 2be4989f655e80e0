// A Training Operator v1 job read into one shape, with the operator's defaulting applied:
// what every kind's hooks and the shared compiler work from.
#ifndef TRAINJOB_LEGACY_LEGACY_JOB_H_
#define TRAINJOB_LEGACY_LEGACY_JOB_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "legacy/legacy_kinds.h"
#include "load/document.h"
#include "load/json.h"

namespace trainjob {

struct LegacyReplica {
  std::string type;   ///< canonical case: `Master`, `PS`
  std::string lower;  ///< `master`, `ps`: in names and labels
  int64_t replicas = 1;
  bool replicas_set = false;   ///< `replicas` was written (the webhooks read it undefaulted)
  std::string restart_policy;  ///< after defaulting: Always, OnFailure, Never or ExitCode
  Json pod_template;           ///< `template`, the default port added to the default container
  std::string path;            ///< `spec.pytorchReplicaSpecs.worker`, as the user spelt the key
};

struct LegacyJob {
  const LegacyKind* kind = nullptr;
  const Document* document = nullptr;
  std::string name;
  std::string name_space;               ///< metadata.namespace, else the default; may be empty
  Json spec;                            ///< the whole spec, as written
  Json run_policy;                      ///< spec.runPolicy, cleanPodPolicy defaulted to None
  std::vector<LegacyReplica> replicas;  ///< in the kind's replica type order
  /// PyTorch: spec.nprocPerNode after defaulting (`auto` unless elasticPolicy.nProcPerNode).
  std::string nproc_per_node;
  /// PyTorch: spec.elasticPolicy with minReplicas/maxReplicas defaulted; null when absent.
  Json elastic_policy;

  /// The replica of canonical type `type`, or null.
  const LegacyReplica* replica(std::string_view type) const;
  /// Sum of replicas over every replica type.
  int64_t total_replicas() const;
  /// The namespace names are resolved in: name_space, else `default`.
  std::string dns_namespace() const;
};

/// Reads a legacy job of a known kind (find_legacy_kind) and applies the operator's
/// defaulting. False when it cannot be read far enough to compile; problems go to
/// `diagnostics` at the user's fields.
bool read_legacy_job(const Document& document, const std::string& default_namespace, LegacyJob* job,
                     Diagnostics* diagnostics);

/// Once the namespace is written into what the pods resolve (TF_CONFIG, a hostfile, DNS
/// search paths), the objects only work in that namespace: they state it, `default` when
/// the job names none, so `kubectl apply -n other` refuses them instead of creating pods
/// that cannot reach each other.
void state_baked_namespace(LegacyJob* job);

/// The PyTorchJob's and XGBoostJob's webhook rule: a Master states `replicas: 1` (the
/// webhook runs before any defaulting, so an absent count is refused too).
void check_master_replicas_one(const LegacyJob& job, const LegacyReplica& master,
                               const FieldReader& reader);

/// The first container named `name` in a pod template, else the first container (as the
/// operator picks the container it defaults the port on); null when there is none.
const Json* legacy_default_container(const Json& pod_template, std::string_view name);
/// The containerPort of the port named `port_name` on the container named `container`
/// of `replica`'s template, or `fallback`.
int64_t legacy_port(const LegacyReplica& replica, std::string_view container,
                    std::string_view port_name, int64_t fallback);
/// `{"name": name, "value": value}`.
Json legacy_env(const std::string& name, const std::string& value);
/// Appends `env` to `container`'s env, the user's variables of the same names dropped first:
/// the operators append, and Kubernetes keeps the last of two equal names.
void legacy_append_env(Json* container, const Json& env);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_LEGACY_JOB_H_
