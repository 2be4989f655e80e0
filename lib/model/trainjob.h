// A TrainJob read into one shape, whichever API dialect it was written in.
#ifndef TRAINJOB_MODEL_TRAINJOB_H_
#define TRAINJOB_MODEL_TRAINJOB_H_

#include <optional>
#include <string>
#include <vector>

#include "load/json.h"
#include "model/dialect.h"
#include "model/field.h"

namespace trainjob {

/// One patch of runtime pod templates: `podSpecOverrides[i]` (v2.0),
/// `podTemplateOverrides[i]` (v2.1) or one replicated job of `runtimePatches[i]` (v2.2+).
struct PodOverride {
  std::vector<Field> target_jobs;  ///< each a string field naming a replicated job
  Field job_metadata;              ///< v2.2+: labels/annotations of the Job template
  Field pod_metadata;              ///< labels/annotations of the pod template
  Field pod_spec;                  ///< the PodSpec patch
};

struct TrainJob {
  std::string name;
  std::string name_space;  ///< empty: the namespace the objects are applied to
  Dialect dialect = kDefaultDialect;
  std::string runtime_kind;
  Field runtime_name;
  bool suspend = false;
  Field trainer;      ///< spec.trainer (may be empty)
  Field initializer;  ///< spec.initializer (may be empty)
  Field active_deadline_seconds;
  Json jobset_labels = Json::object();  ///< spec.labels (v2.1) or runtimePatches metadata
  Json jobset_annotations = Json::object();
  std::vector<PodOverride> overrides;
};

/// Reads `reader`'s TrainJob. `forced` is `--trainer-version`; without it the dialect is
/// the newest release whose fields and values the TrainJob uses (kDefaultDialect when nothing
/// tells). Returns nullopt when the document cannot be read far enough to compile; problems go to
/// the reader's diagnostics. The dialect `trainjob` is written in (see read_trainjob), without
/// reporting anything; nullopt when its fields contradict each other (or `forced`).
std::optional<Dialect> trainjob_dialect(const Document& trainjob, std::optional<Dialect> forced);

std::optional<TrainJob> read_trainjob(const FieldReader& reader, std::optional<Dialect> forced,
                                      const std::string& default_namespace);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_TRAINJOB_H_
