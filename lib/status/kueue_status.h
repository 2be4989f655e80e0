// What Kueue says about a TrainJob's Jobs: each Job in a queue has a Workload of Kueue's
// (owned by the Job), whose conditions say whether quota is reserved and, while not, why; and
// the Workload's place in its LocalQueue, from Kueue's visibility API where an APIService
// serves it, else from the order Kueue admits the queue's pending Workloads in.
#ifndef TRAINJOB_STATUS_KUEUE_STATUS_H_
#define TRAINJOB_STATUS_KUEUE_STATUS_H_

#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "load/json.h"

namespace trainjob {

struct KueueWorkloadStatus {
  std::string job;       ///< the Job that owns the Workload
  std::string workload;  ///< the Workload's name
  std::string queue;     ///< spec.queueName: the LocalQueue
  bool admitted = false;
  bool finished = false;
  /// While not admitted: the QuotaReserved condition's reason and message (Pending,
  /// "couldn't assign flavors to pod set main: insufficient unused quota ...").
  std::string reason;
  std::string message;
  std::optional<int> position;  ///< 1-based, in the LocalQueue, while pending
  /// "visibility API", or "Workloads" when computed from the pending Workloads' order.
  std::string position_source;
};

/// The Workloads among `workloads` that the `jobs` own (by ownerReferences' uid), in the
/// Jobs' order; a Job with no Workload yet gets none.
std::vector<KueueWorkloadStatus> kueue_workloads_of(const std::vector<Json>& jobs,
                                                    const std::vector<Json>& workloads);

/// The 1-based place of Workload `name` among the pending Workloads of LocalQueue `queue`
/// in `workloads` (one namespace's), in the order Kueue's BestEffortFIFO and StrictFIFO
/// queues admit them: higher spec.priority first, then the older. Null when it is not pending.
std::optional<int> kueue_position_from_workloads(const std::string& name, const std::string& queue,
                                                 const std::vector<Json>& workloads);

/// Its positionInLocalQueue (0-based there) in the visibility API's PendingWorkloadsSummary
/// `pending`, plus one; null when it is not listed.
std::optional<int> kueue_position_from_visibility(const std::string& name, const Json& pending);

/// One line for `status`: "Kueue: Workload W of Job J: pending in LocalQueue Q (position 2,
/// from ...): REASON: MESSAGE", or "...: admitted".
std::string kueue_line(const KueueWorkloadStatus& workload);

/// The Kueue statuses of `jobs` that carry a queue label (none when none does, or when Kueue's
/// Workloads cannot be read: Kueue is not installed). Positions come from the visibility API
/// when it answers, else from the namespace's Workloads.
std::vector<KueueWorkloadStatus> fetch_kueue_status(KubeClient* client,
                                                    const std::string& name_space,
                                                    const std::vector<Json>& jobs);

}  // namespace trainjob

#endif  // TRAINJOB_STATUS_KUEUE_STATUS_H_
