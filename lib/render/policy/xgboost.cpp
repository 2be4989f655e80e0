// The XGBoost policy (Trainer v2.2+): the Rabit tracker's address and the worker count.
// Rank 0's code starts the tracker on the port; DMLC_TASK_ID is per pod while
// DMLC_NUM_WORKER counts GPUs, as upstream sets them.
#include <algorithm>
#include <limits>

#include "model/jobset_labels.h"
#include "model/num_proc.h"
#include "render/pod_edit.h"
#include "render/policy/plugins.h"

namespace trainjob {
namespace {

constexpr int kTrackerPort = 29500;

void inject_xgboost(const PolicyEnvInput& input, Json* node) {
  const std::string& name = input.trainjob;
  // The node container's resources are the TrainJob's resourcesPerNode when it sets them,
  // else the runtime's: the GPUs of either, at least one worker per pod.
  const Json& resources = node->contains("resources") ? (*node)["resources"] : Json();
  int64_t workers_per_pod = std::max<int64_t>(gpu_count(resources), 1);
  upsert_env_value(node, "DMLC_TRACKER_URI", first_node_host(name));
  upsert_env_value(node, "DMLC_TRACKER_PORT", std::to_string(kTrackerPort));
  upsert_env(node, completion_index_env("DMLC_TASK_ID"));
  // Saturated: a hostile GPU quantity must not overflow the product.
  int64_t workers = 0;
  if (__builtin_mul_overflow(input.pods, workers_per_pod, &workers)) {
    workers = std::numeric_limits<int64_t>::max();
  }
  upsert_env_value(node, "DMLC_NUM_WORKER", std::to_string(workers));
  upsert_port(node, Json{{"containerPort", kTrackerPort}});
}

}  // namespace

const PolicyPlugin kXgboostPlugin = {
    "xgboost",
    {"DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID", "DMLC_NUM_WORKER"},
    "is reserved for the XGBoost runtime",
    inject_xgboost,
    nullptr,
    nullptr,
    nullptr};

}  // namespace trainjob
