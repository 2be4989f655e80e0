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

/// What `submit` applies for `rendered`: one plan per TrainJob (or v1 kind) among the
/// inputs, in input order, each with its objects and the other input documents that go with
/// it (those of its file; see owner_of), in its namespace (else `name_space`) and labelled as
/// its own, with the ConfigMap of `from_files` (pipeline/config_map_files.h), ordered for
/// apply and marked as submitted. Throws KubeError (located where it can be) when the inputs
/// hold no job, a document names a namespace other than its job's, a document cannot be
/// given to one job, or the ConfigMap cannot be built. (A namespace other than -n's is
/// refused before, by render_inputs.)
std::vector<SubmitPlan> plan_submit(const RenderResult& rendered,
                                    const std::vector<std::string>& from_files,
                                    const std::string& name_space);

/// Safe order: ConfigMaps and Secrets, Services, Workloads and PodGroups, then Jobs (initializers
/// first, Jobs that depend on others last), then anything else; the order within a kind is kept.
std::vector<Json> order_for_apply(std::vector<Json> objects);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_PLAN_H_
