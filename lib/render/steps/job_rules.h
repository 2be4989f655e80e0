// Rules of the Kubernetes Job and JobSet APIs that the Trainer CRDs' schemas do not carry
// (they embed the types, not the API server's validation), checked on a runtime's
// replicated jobs, so that a runtime whose Jobs the API server would refuse is caught here.
#ifndef TRAINJOB_RENDER_STEPS_JOB_RULES_H_
#define TRAINJOB_RENDER_STEPS_JOB_RULES_H_

#include "model/field.h"

namespace trainjob {

/// restartPolicy OnFailure or Never, imagePullPolicy of every container, non-negative
/// counts (backoffLimit, parallelism, completions, ttlSecondsAfterFinished).
bool check_job_template(const FieldReader& runtime, const Field& job_template);
/// dependsOn: not on the first job, only on earlier jobs, not with startupPolicy InOrder.
bool check_job_order(const FieldReader& runtime, const Field& jobset_spec);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_STEPS_JOB_RULES_H_
