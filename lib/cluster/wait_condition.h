// `wait --for`: what kubectl wait's --for says, read, and whether a TrainJob's status meets
// it. Pure: job_wait.h does the waiting.
#ifndef TRAINJOB_CLUSTER_WAIT_CONDITION_H_
#define TRAINJOB_CLUSTER_WAIT_CONDITION_H_

#include <optional>
#include <string>

#include "load/json.h"
#include "status/trainjob_status.h"

namespace trainjob {

struct WaitCondition {
  enum class Kind { kCondition, kDelete, kCreate, kJsonPath };
  Kind kind = Kind::kCondition;
  std::string type;                  ///< condition=TYPE (Complete, Failed, Suspended)
  std::string status = "True";       ///< condition=TYPE=STATUS
  std::string jsonpath;              ///< jsonpath=TEMPLATE, braces included
  std::optional<std::string> value;  ///< jsonpath=TEMPLATE=VALUE; none: any non-empty result
};

/// --for as kubectl wait reads it: `condition=TYPE[=STATUS]`, `delete`, `create` or
/// `jsonpath={PATH}[=VALUE]`; nullopt with `*error` for anything else.
std::optional<WaitCondition> parse_wait_for(const std::string& text, std::string* error);

enum class WaitCheck {
  kMet,
  kNotYet,
  kNever,  ///< the job finished without meeting it: a failed job never completes
};

/// Whether `status` (and `object`, its status_json, for jsonpath) meets a condition or
/// jsonpath `condition` now. Condition types and statuses compare ignoring case, as in
/// kubectl. Waiting for Complete on a Failed job, or for Failed on a Complete one, is kNever
/// (as the Kubeflow SDK's wait_for_job_status stops at Failed).
WaitCheck check_wait(const WaitCondition& condition, const TrainJobStatus& status,
                     const Json& object);

/// `trainjob.trainer.kubeflow.org/NAME`, as kubectl wait names what it waited on.
std::string wait_object_name(const TrainJobStatus& status);
/// `trainjobs/NAME`, as kubectl wait's timeout message names it.
std::string wait_resource_name(const TrainJobStatus& status);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_WAIT_CONDITION_H_
