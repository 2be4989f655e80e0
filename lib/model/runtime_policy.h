// Which ML policy a runtime names, and which Trainer releases know that policy: what
// `kubectl trainjob runtimes` shows and what limits the releases a built-in runtime serves.
#ifndef TRAINJOB_MODEL_RUNTIME_POLICY_H_
#define TRAINJOB_MODEL_RUNTIME_POLICY_H_

#include <string>
#include <string_view>
#include <vector>

#include "load/document.h"
#include "model/dialect.h"

namespace trainjob {

/// An ML policy a runtime may name under `spec.mlPolicy`, and the first Trainer release
/// whose controller has its plugin.
struct MlPolicyName {
  const char* name;  ///< its field under mlPolicy: `torch`
  Dialect since;
};
/// Every ML policy, in upstream's order: the one table of them. render's plugins
/// (render/policy/plugins.cpp) hold one plugin per entry, which a unit test checks.
const std::vector<MlPolicyName>& ml_policy_names();

/// The policy under `spec.mlPolicy`: torch, mpi, jax, xgboost or flux; plainml when the
/// runtime names none (upstream's PlainML plugin). The first one found when it names several.
std::string runtime_policy(const Document& runtime);

/// The Trainer releases whose controller has the policy's plugin (jax, xgboost and flux came
/// with v2.2); every release for a policy it does not know.
DialectRange policy_releases(std::string_view policy);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_RUNTIME_POLICY_H_
