// The directories and files behind a local plan's volumes.
#ifndef TRAINJOB_LOCAL_LOCAL_VOLUMES_H_
#define TRAINJOB_LOCAL_LOCAL_VOLUMES_H_

#include <string>

#include "local/local_plan.h"

namespace trainjob {

/// Writes each configMap volume's keys as files (honouring items, defaultMode and mode),
/// creates each emptyDir, and checks each hostPath against its type. Returns false with
/// `*error` naming the pod and volume on the first problem.
bool materialize_volumes(const LocalPlan& plan, std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LOCAL_VOLUMES_H_
