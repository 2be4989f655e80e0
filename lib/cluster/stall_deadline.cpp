#include "cluster/stall_deadline.h"

namespace trainjob {

std::vector<NodeStatus> StallWatch::stalled(const std::vector<NodeStatus>& nodes, double now,
                                            double deadline) {
  std::vector<NodeStatus> out;
  for (const NodeStatus& node : nodes) {
    if (node.pod.empty()) continue;
    std::string state = std::string(job_phase_name(node.phase)) + "/" +
                        (node.ready ? "ready" : "") + "/" + std::to_string(node.restarts) + "/" +
                        node.reason;
    auto [it, added] = seen_.try_emplace(node.pod, Seen{state, now});
    if (!added && it->second.state != state) it->second = Seen{state, now};
    if (deadline > 0 && node.phase == JobPhase::kPending && now - it->second.since >= deadline)
      out.push_back(node);
  }
  return out;
}

std::string describe_stalled(const std::vector<NodeStatus>& nodes) {
  std::string out;
  for (const NodeStatus& node : nodes) {
    if (!out.empty()) out += "; ";
    out += "pod " + node.pod + " (" + node.label + ") " + job_phase_name(node.phase);
    out += node.reason.empty() ? ": no reason reported" : ": " + node.reason;
  }
  return out;
}

}  // namespace trainjob
