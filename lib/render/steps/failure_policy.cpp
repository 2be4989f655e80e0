#include "render/steps/failure_policy.h"

#include <algorithm>
#include <string>

#include "model/vocabulary.h"

namespace trainjob {
namespace {

constexpr const char* kPolicyPath = "spec.template.spec.failurePolicy";

const Json* failure_policy(const Json& jobset_spec) {
  auto it = jobset_spec.find("failurePolicy");
  return it != jobset_spec.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace

int64_t jobset_max_restarts(const Json& jobset_spec) {
  const Json* policy = failure_policy(jobset_spec);
  if (policy == nullptr) return 0;
  auto it = policy->find("maxRestarts");
  if (it == policy->end() || !it->is_number_integer()) return 0;
  return std::max<int64_t>(it->get<int64_t>(), 0);
}

void annotate_max_restarts(const CompileState& state, Json* metadata) {
  int64_t max_restarts = jobset_max_restarts(state.jobset_spec);
  if (max_restarts > 0)
    (*metadata)["annotations"][kMaxRestartsAnnotation] = std::to_string(max_restarts);
}

void warn_failure_policy(const CompileState& state) {
  const Json* policy = failure_policy(state.jobset_spec);
  if (policy == nullptr) return;
  const FieldReader& reader = state.runtime_reader;
  int64_t max_restarts = jobset_max_restarts(state.jobset_spec);
  if (max_restarts > 0) {
    reader.warning(std::string(kPolicyPath) + ".maxRestarts",
                   "JobSet failurePolicy.maxRestarts is honoured by `submit --wait` and `wait "
                   "--restart` (from the Jobs' kubectl-trainjob/max-restarts annotation): when a "
                   "Job fails, every Job is deleted and created again with the next "
                   "jobset.sigs.k8s.io/restart-attempt, up to " +
                       std::to_string(max_restarts) + (max_restarts == 1 ? " time" : " times") +
                       "; applied without them, the first failed Job fails the TrainJob");
  }
  auto rules = policy->find("rules");
  if (rules != policy->end() && rules->is_array() && !rules->empty()) {
    reader.warning(std::string(kPolicyPath) + ".rules",
                   "JobSet failurePolicy rules are not applied: any failed Job restarts the "
                   "TrainJob while restarts are left, and fails it after that");
  }
  if (policy->value("restartStrategy", "") == "InPlaceRestart") {
    reader.warning(std::string(kPolicyPath) + ".restartStrategy",
                   "JobSet restartStrategy InPlaceRestart is not applied (it needs JobSet's "
                   "in-place restart agent): a restart deletes the Jobs and creates them again "
                   "(Recreate); the containers' restartPolicyRules (RestartAllContainers) are "
                   "kept as written and restart a pod's containers in place where its node "
                   "supports it");
  }
}

}  // namespace trainjob
