#include "render/gitops_order.h"

#include <algorithm>
#include <map>
#include <string>

namespace trainjob {

std::vector<int64_t> sync_waves(const std::vector<ReplicatedJob>& jobs) {
  // JobSet admits dependsOn only on earlier jobs (job_rules.cpp checks it), so one pass in
  // order sees every dependency's wave before the jobs that wait for it.
  std::map<std::string, int64_t> wave_of;
  std::vector<int64_t> waves;
  for (const ReplicatedJob& job : jobs) {
    int64_t wave = 0;
    if (job.depends_on.is_array()) {
      for (const Json& dependency : job.depends_on) {
        if (!dependency.is_object()) continue;
        auto found = wave_of.find(dependency.value("name", ""));
        if (found == wave_of.end()) continue;
        bool complete = dependency.value("status", "") == "Complete";
        wave = std::max(wave, found->second + (complete ? 1 : 0));
      }
    }
    wave_of[job.name] = wave;
    waves.push_back(wave);
  }
  return waves;
}

}  // namespace trainjob
