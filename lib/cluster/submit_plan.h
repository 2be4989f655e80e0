// `submit`'s plan: from what render made of the inputs to the objects to apply, labelled as
// the TrainJob's and as submitted.
#ifndef TRAINJOB_CLUSTER_SUBMIT_PLAN_H_
#define TRAINJOB_CLUSTER_SUBMIT_PLAN_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

/// The objects of one TrainJob, rendered and ready to apply.
struct SubmitPlan {
  std::string kind = "TrainJob";  ///< or the legacy kind the Jobs came from (PyTorchJob)
  std::string trainjob;
  std::string name_space;
  std::vector<Json> objects;
};

/// Labels every object as the TrainJob's and as applied by `submit`, and records on each the
/// kinds applied, so that `delete` finds exactly these (see resources.h).
void mark_as_submitted(SubmitPlan* plan);

/// What `submit` applies for `rendered`: the one TrainJob's objects and the other input
/// documents, in its namespace (else `name_space`) and labelled as its own, with the
/// ConfigMap of `from_files` (pipeline/config_map_files.h), ordered for apply and marked as
/// submitted. Throws KubeError when the inputs hold no or several TrainJobs, a document names
/// another namespace, or the ConfigMap cannot be built.
SubmitPlan plan_submit(const RenderResult& rendered, const std::vector<std::string>& from_files,
                       const std::string& name_space);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_PLAN_H_
