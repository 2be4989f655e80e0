// One legacy replica's pod template read for a TrainJob: the default container becomes
// spec.trainer, the pod fields an override of the release can carry become an
// override of the trainer's replicated job, and what none can carry is reported, or kept
// for a TrainingRuntime of the job's own with --with-runtime.
#ifndef TRAINJOB_CONVERT_LEGACY_POD_TEMPLATE_H_
#define TRAINJOB_CONVERT_LEGACY_POD_TEMPLATE_H_

#include <cstdint>
#include <string>

#include "load/document.h"
#include "model/dialect.h"
#include "model/field.h"

namespace trainjob {

struct LegacyKind;

struct PodTemplateMapping {
  // In:
  const FieldReader* reader = nullptr;  ///< of the legacy job, for located messages
  Dialect release = kDefaultDialect;    ///< the Trainer release the TrainJob is written for
  const LegacyKind* kind = nullptr;     ///< PyTorchJob, XGBoostJob, JAXJob
  std::string container;                ///< the kind's default container: pytorch, xgboost, jax
  std::string job_name;                 ///< the job's name, which the TrainJob keeps
  std::string trainer_job;              ///< the runtime's replicated job the nodes run in (`node`)
  bool with_runtime = false;
  int64_t num_nodes = 1;
  // Out:
  Json trainer = Json::object();       ///< spec.trainer less numNodes
  Json overrides = Json::array();      ///< in the v2.1 form (podTemplateOverrides)
  bool needs_runtime = false;          ///< something only a runtime can carry (with_runtime)
  Json pod_template = Json::object();  ///< the job's template, for that runtime
};

/// Reads the pod template at `path` into `mapping`.
void map_pod_template(const Json& pod_template, const std::string& path,
                      PodTemplateMapping* mapping);

/// A TrainingRuntime named and namespaced like `job`: `stock` (the kind's runtime) with the
/// job's pod template laid over its trainer replicated job, the default container as `node`.
Json custom_runtime(const Document* stock, const Document& job, const PodTemplateMapping& mapping);

}  // namespace trainjob

#endif  // TRAINJOB_CONVERT_LEGACY_POD_TEMPLATE_H_
