// Moving TrainJobs and (Cluster)TrainingRuntimes between the Trainer API dialects:
// podSpecOverrides (v2.0) ⇄ podTemplateOverrides (v2.1) ⇄ runtimePatches (v2.2+), and the
// fields v2.2 removed rewritten to what means the same in the target release.
#ifndef TRAINJOB_CONVERT_CONVERT_DIALECT_H_
#define TRAINJOB_CONVERT_CONVERT_DIALECT_H_

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/dialect.h"
#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {

/// `trainjob` in `release`'s dialect. What the release cannot express is a located error in
/// `diagnostics`; a harmless change is a warning. Equal to the input when it already is in
/// that dialect and uses nothing the release lacks.
Json convert_trainjob_dialect(const Document& trainjob, Dialect release, Diagnostics* diagnostics);

/// `spec` of a TrainJob with its overrides and JobSet labels moved from `source`'s form to
/// `release`'s, unchecked: the caller has made sure the release can carry them.
Json move_overrides(const Json& spec, Dialect source, Dialect release);

/// trainer.numProcPerNode for `release`: from v2.2 an integer, unset meaning auto (a process
/// per GPU, else per CPU). auto/cpu/gpu become what means the same there, counted from
/// trainer.resourcesPerNode; a warning at `path` when nothing can be counted.
void convert_num_proc(const FieldReader& reader, const std::string& path, Dialect release,
                      Json* trainer);

/// A TrainingRuntime or ClusterTrainingRuntime for `release`: v2.2 removed the torch
/// policy's numProcPerNode and elasticPolicy; jax, xgboost and flux and the torch
/// envInjection do not exist before the releases that brought them.
Json convert_runtime_dialect(const Document& runtime, Dialect release, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_CONVERT_DIALECT_H_
