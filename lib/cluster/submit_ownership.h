// Who made an object `submit` would apply. Only what submit created for the TrainJob carries
// its labels, and so only that is deleted with it: an object that existed before (made with
// `kubectl create configmap`, by another TrainJob's submit) is never taken over by an apply.
#ifndef TRAINJOB_CLUSTER_SUBMIT_OWNERSHIP_H_
#define TRAINJOB_CLUSTER_SUBMIT_OWNERSHIP_H_

#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/objects.h"
#include "load/json.h"

namespace trainjob {

/// Whether `live` was created by submit for `trainjob`, which applies `object`: it carries
/// kCreatedBySubmitLabel and that TrainJob's name label, or (a document of a sweep, applied
/// with each trial) the same OptimizationJob label as `object`. Labels are decided when
/// submit creates an object and kept by later applies (see with_marks_of), so they
/// say who created it.
bool created_by_submit_for(const Json& live, const Json& object, const std::string& trainjob);

/// `object` with what makes an object a TrainJob's (its name label, render's managed-by
/// label, submit's created-by label, a sweep's label, the kinds annotation) as `live` has
/// them: what submit applies to an object it did not create, so that the apply leaves its
/// labels as they were (an apply that left out a label of another TrainJob's would remove it).
Json with_marks_of(Json object, const Json& live);

/// The fields in which `applied` (the server's answer to a dry-run apply) differs from
/// `live`, as `data.train.py` or `metadata.labels.team`; a list that differs is named once
/// (`spec.ports`). What the server keeps by itself (managedFields, resourceVersion,
/// generation, status) is not compared.
std::vector<std::string> changed_fields(const Json& live, const Json& applied);

/// "was not created by submit", or "was created by submit for TrainJob T" (another one):
/// why submit leaves `live` as it is, for the messages about it.
std::string not_created_by_submit(const Json& live);

/// An object that exists, which submit did not create for the TrainJob.
struct ForeignObject {
  std::string why;                  ///< not_created_by_submit
  std::vector<std::string> fields;  ///< what the apply would change in it; empty: nothing
  Json live;                        ///< as it was found
};

/// For `object`, which the dry run found to exist as `live` (`*result`, a success or a
/// refusal): null when submit created it for `trainjob`. Else what it is, and `*result`
/// becomes the dry run of the apply it would get instead: with the marks `live` has
/// (with_marks_of) and forced, so that its fields say what would change.
std::optional<ForeignObject> check_foreign(KubeClient* client, const Json& object,
                                           const std::string& name_space,
                                           const std::string& trainjob, const Json& live,
                                           ApplyResult* result);

/// Makes `*result` (check_foreign's) a refusal that says whose the object is: when the server
/// refuses the change, or when the change is not empty and not `force_conflicts`.
void refuse_unless_forced(const ForeignObject& foreign, bool force_conflicts, ApplyResult* result);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_SUBMIT_OWNERSHIP_H_
