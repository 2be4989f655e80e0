#include "render/jobset_labels.h"

#include <openssl/evp.h>

namespace trainjob {

std::string sha1_hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha1(), nullptr);
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

Json jobset_keys(const JobPlacement& p) {
  Json keys = Json::object();
  keys[kJobSetNameLabel] = p.trainjob;
  keys[kReplicatedJobNameLabel] = p.replicated_job;
  keys["jobset.sigs.k8s.io/restart-attempt"] = "0";
  keys[kReplicatedJobReplicasKey] = std::to_string(p.replicated_job_replicas);
  keys["jobset.sigs.k8s.io/global-replicas"] = std::to_string(p.global_replicas);
  keys[kJobIndexKey] = std::to_string(p.job_index);
  keys["jobset.sigs.k8s.io/job-global-index"] = std::to_string(p.job_global_index);
  if (!p.name_space.empty()) {
    keys["jobset.sigs.k8s.io/job-key"] = sha1_hex(p.name_space + "/" + p.job_name);
  }
  keys["jobset.sigs.k8s.io/group-name"] = p.group;
  keys["jobset.sigs.k8s.io/group-replicas"] = std::to_string(p.group_replicas);
  keys["jobset.sigs.k8s.io/job-group-index"] = std::to_string(p.job_group_index);
  return keys;
}

Json ownership_labels(const std::string& trainjob) {
  return Json{{kTrainJobNameLabel, trainjob}, {kManagedByLabel, kManagedByValue}};
}

}  // namespace trainjob
