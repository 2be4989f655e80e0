// TrainJob + runtime -> the objects that run it: headless Service, PodGroup, Jobs.
#ifndef TRAINJOB_RENDER_COMPILE_H_
#define TRAINJOB_RENDER_COMPILE_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/json_keys.h"
#include "model/dialect.h"
#include "model/runtime_registry.h"
#include "render/render_target.h"

namespace trainjob {

struct CompileOptions {
  std::optional<Dialect> dialect;  ///< `--trainer-version`; detected from the fields if unset
  std::string default_namespace;   ///< for TrainJobs without metadata.namespace
  /// "namespace/name" of the ConfigMaps among the inputs; null: unknown, so a configMap
  /// volume is not checked against them.
  const std::set<std::string>* config_maps = nullptr;
  /// The same for the PersistentVolumeClaims among the inputs (persistentVolumeClaim volumes).
  const std::set<std::string>* claims = nullptr;
  /// Emit the Secrets a policy generates keys for (MPI's SSH key, Flux's CURVE certificate)
  /// with fresh keys, annotated kCreateOnlyIfAbsentAnnotation; when false they are only
  /// referenced by name, and a warning says they must exist. `submit` sets it.
  bool generate_secrets = false;
  /// `--target`: plain Jobs (the default) or the JobSet the Trainer controller would create.
  RenderTarget render_target = RenderTarget::kJobs;
  /// `--gang`: gang-schedule the pods with Kubernetes' own Workload API, as a runtime's
  /// `spec.scheduling: {}` asks (render/scheduling/workload_scheduling.h).
  bool gang = false;
  /// `--gitops-order`: apply-order annotations on the Jobs (target kJobs only).
  GitOpsOrder gitops_order = GitOpsOrder::kNone;
  /// The objects may be applied by a GitOps controller (`render`, the KRM function): warn
  /// about what such a controller does to them (a Job's TTL makes it re-create the Job).
  bool warn_gitops_traps = false;
  /// The objects are wanted (false: `validate`, which drops them as soon as they are
  /// compiled): only then are their keys sorted, which orders the output and finds nothing.
  bool keep_objects = true;
};

/// Compiles one TrainJob document. Returns the objects in the order they should be
/// applied, with keys sorted, or nothing when there were errors (in `diagnostics`).
/// `validate` runs this same compile and drops the objects: a check or warning that lives
/// anywhere on the way to the objects is thus one that validate makes too.
std::vector<Json> compile_trainjob(const Document& trainjob, const RuntimeRegistry& runtimes,
                                   const CompileOptions& options, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_COMPILE_H_
