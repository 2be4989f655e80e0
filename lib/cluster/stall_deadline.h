// `submit --wait`'s stall deadline (`--progress-deadline`, named after Deployments'): which pods
// have not moved for too long, so a CI job waiting on an Unschedulable or ImagePullBackOff pod
// fails instead of hanging.
#ifndef TRAINJOB_CLUSTER_STALL_DEADLINE_H_
#define TRAINJOB_CLUSTER_STALL_DEADLINE_H_

#include <map>
#include <string>
#include <vector>

#include "status/trainjob_status.h"

namespace trainjob {

/// The default --progress-deadline, in seconds: Deployments' progressDeadlineSeconds. kubectl
/// wait's 30 s is too short for an image pull or a cluster autoscaler.
inline constexpr double kDefaultProgressDeadline = 600;

/// Remembers, pod by pod, since when nothing about it changed (phase, readiness, restarts,
/// reason). Only a pod that has not started (Pending) can be stuck: one that runs may run as
/// long as it likes.
class StallWatch {
 public:
  /// Notes `nodes` as seen at `now`; returns those Pending without any change for `deadline`
  /// seconds or more (none when `deadline` <= 0).
  std::vector<NodeStatus> stalled(const std::vector<NodeStatus>& nodes, double now,
                                  double deadline);

 private:
  struct Seen {
    std::string state;
    double since = 0;
  };
  std::map<std::string, Seen> seen_;  ///< by pod name
};

/// "pod X (node-1) Pending: Unschedulable: ..." for each stalled node, joined by "; ".
std::string describe_stalled(const std::vector<NodeStatus>& nodes);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_STALL_DEADLINE_H_
