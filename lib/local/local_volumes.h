// The materialising stage of `run --local`: the directories and files behind a local
// plan's volumes, every one written beneath the work directory through util/beneath.
#ifndef TRAINJOB_LOCAL_LOCAL_VOLUMES_H_
#define TRAINJOB_LOCAL_LOCAL_VOLUMES_H_

#include <string>

#include "local/plan/local_plan.h"
#include "util/beneath.h"

namespace trainjob {

/// Writes each configMap volume's keys as files beneath `work` (honouring items,
/// defaultMode and mode, masked to 0777), creates each emptyDir, takes write permission
/// from read-only volumes, and checks each hostPath against its type and, unless
/// `allow_host_path`, against the refused system directories after resolving symlinks.
/// Returns false with `*error` naming the pod and volume on the first problem.
bool materialize_volumes(const LocalPlan& plan, const RootDir& work, bool allow_host_path,
                         std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LOCAL_VOLUMES_H_
