// The annotations render writes for the client side (`submit`, `status`) to act on: what
// a JobSet or Trainer controller would do in the cluster, done by the plugin instead. Kept
// apart from jobset_labels.h so that lib/kube can include them without the render labels.
#ifndef TRAINJOB_RENDER_CLIENT_ANNOTATIONS_H_
#define TRAINJOB_RENDER_CLIENT_ANNOTATIONS_H_

namespace trainjob {

/// JobSet's successPolicy, as compact JSON, on every Job of a TrainJob whose runtime has one:
/// no JobSet controller exists, so `submit --wait` and `status` read it from the Jobs.
inline constexpr const char* kSuccessPolicyAnnotation = "kubectl-trainjob/success-policy";
/// A replicated job's dependsOn list, as compact JSON, on each of its Jobs (read the same way).
inline constexpr const char* kDependsOnAnnotation = "kubectl-trainjob/depends-on";
/// On an object `submit` creates only when it does not exist yet (a generated Secret).
inline constexpr const char* kCreateOnlyIfAbsentAnnotation =
    "kubectl-trainjob/create-only-if-absent";
/// On every Job compiled from a Training Operator v1 or mpi-operator kind: the kind
/// (`PyTorchJob`), which `list` shows and by which the cluster side knows the job's rules.
inline constexpr const char* kSourceKindAnnotation = "kubectl-trainjob/source-kind";
/// On every Job of a legacy kind: how many Jobs its replica type has ("3"), so a success
/// rule of "All" knows how many to wait for.
inline constexpr const char* kReplicasAnnotation = "kubectl-trainjob/replicas";

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_CLIENT_ANNOTATIONS_H_
