#include "model/jobset_labels.h"

#include "crypto/digest.h"

namespace trainjob {

Json jobset_keys(const JobPlacement& p) {
  Json keys = Json::object();
  keys[kJobSetNameLabel] = p.trainjob;
  keys[kReplicatedJobNameLabel] = p.replicated_job;
  keys[kRestartAttemptKey] = "0";
  keys[kReplicatedJobReplicasKey] = std::to_string(p.replicated_job_replicas);
  keys[kGlobalReplicasKey] = std::to_string(p.global_replicas);
  keys[kJobIndexKey] = std::to_string(p.job_index);
  keys[kJobGlobalIndexKey] = std::to_string(p.job_global_index);
  if (!p.name_space.empty()) {
    keys[kJobKeyKey] = sha1_hex(p.name_space + "/" + p.job_name);
  }
  keys[kGroupNameKey] = p.group;
  keys[kGroupReplicasKey] = std::to_string(p.group_replicas);
  keys[kJobGroupIndexKey] = std::to_string(p.job_group_index);
  return keys;
}

Json ownership_labels(const std::string& trainjob) {
  return Json{{kTrainJobNameLabel, trainjob}, {kManagedByLabel, kManagedByValue}};
}

std::string first_pod_hostname(const std::string& trainjob, const std::string& replicated_job) {
  return trainjob + "-" + replicated_job + "-0-0";
}

std::string first_node_host(const std::string& trainjob) {
  return first_pod_hostname(trainjob, kNodeName) + "." + trainjob;
}

}  // namespace trainjob
