// The names of the TrainJobs submitted to a namespace, for `list`-like answers and for
// shell completion, which must answer quickly or not at all.
#ifndef TRAINJOB_STATUS_TRAINJOB_NAMES_H_
#define TRAINJOB_STATUS_TRAINJOB_NAMES_H_

#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/rest_config.h"

namespace trainjob {

/// The TrainJobs submitted to `name_space`, sorted and unique: the trainjob-name labels of
/// the Jobs and Services kubectl-trainjob manages (where `list` finds them too).
std::vector<std::string> submitted_trainjob_names(KubeClient* client,
                                                  const std::string& name_space);
/// The values of `label` (kOptimizationJobNameLabel, say) on the Jobs and Services
/// kubectl-trainjob manages in `name_space`, sorted and unique.
std::vector<std::string> submitted_label_values(KubeClient* client, const std::string& name_space,
                                                const char* label);

struct NameLookup {
  std::vector<std::string> names;
  /// The cluster did not answer in time. The request still runs on a thread of its own,
  /// so the caller should print what it has and end the process.
  bool timed_out = false;
};

/// submitted_trainjob_names() over a connection made as `flags` say, waiting at most
/// `deadline_seconds` in all (connecting, credential plugins, retries). Any failure gives
/// no names: completion must never print an error or hang the shell.
NameLookup lookup_trainjob_names(const ConnectionFlags& flags, double deadline_seconds);
/// The same for the OptimizationJobs whose trials were submitted (their objects'
/// optimizationjob-name label).
NameLookup lookup_optimization_job_names(const ConnectionFlags& flags, double deadline_seconds);

/// The namespaces of the cluster (GET /api/v1/namespaces), as lookup_trainjob_names()
/// asks: bounded by the deadline, no names on any failure (no cluster, no permission).
NameLookup lookup_namespace_names(const ConnectionFlags& flags, double deadline_seconds);

/// The contexts of the kubeconfig the flags name (or KUBECONFIG, ~/.kube/config): read
/// offline; none when it cannot be read.
std::vector<std::string> kubeconfig_context_names(const ConnectionFlags& flags);

/// A kind kubectl-trainjob manages, with the words kubectl's resource resolution accepts
/// for it: the CRD's plural and singular (lower-case kind); none of these CRDs declares
/// short names.
struct ManagedKind {
  std::string kind;    ///< `PyTorchJob`
  std::string group;   ///< `kubeflow.org`
  std::string plural;  ///< `pytorchjobs`
};

/// TrainJob, then the Training Operator kinds `render` compiles (one MPIJob for both APIs).
const std::vector<ManagedKind>& managed_kinds();
/// The kind a TYPE word names, as kubectl resolves one (case-insensitive; plural, singular
/// or kind, optionally followed by `.GROUP` or `.VERSION.GROUP`); null when we do not
/// manage it.
const ManagedKind* find_managed_kind(const std::string& word);
/// "trainjob, pytorchjob, tfjob, ..." for messages.
std::string managed_kind_words();
/// OptimizationJob: no object on the cluster, but `status` and `delete` take it as a TYPE and
/// act on its trials (status/sweep_status.h).
const ManagedKind& optimization_job_kind();

/// What status, logs, delete, suspend and resume act on: kubectl's `NAME`, `TYPE/NAME`
/// or `TYPE NAME`.
struct TrainJobTarget {
  std::string name;
  const ManagedKind* kind = nullptr;  ///< null when only NAME was given
};

/// `delete`'s several targets: NAME..., TYPE NAME... (when the first word names a kind) or
/// TYPE/NAME...; as parse_trainjob_target otherwise (a first word close to a kind's name is an
/// error, not a NAME). None for no words.
std::optional<std::vector<TrainJobTarget>> parse_trainjob_targets(
    const std::vector<std::string>& words, std::string* error, bool sweeps = false);

/// Reads the positional words; on a word we cannot use, nullopt and `*error` says why and
/// what is accepted. With `sweeps` (status, delete), TYPE may also name optimization_job_kind().
std::optional<TrainJobTarget> parse_trainjob_target(const std::vector<std::string>& words,
                                                    std::string* error, bool sweeps = false);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_TRAINJOB_NAMES_H_
