#include "model/runtime_policy.h"

namespace trainjob {
namespace {

/// upstream's PlainML plugin: a runtime that names no policy.
constexpr const char* kPlainMl = "plainml";

}  // namespace

const std::vector<MlPolicyName>& ml_policy_names() {
  // Plugin directories per tag of kubeflow/trainer: v2.0 has torch and mpi; v2.2 adds jax,
  // xgboost and flux.
  static const std::vector<MlPolicyName> names = {
      {"torch", Dialect::kV2_0},   {"mpi", Dialect::kV2_0},  {"jax", Dialect::kV2_2},
      {"xgboost", Dialect::kV2_2}, {"flux", Dialect::kV2_2},
  };
  return names;
}

std::string runtime_policy(const Document& runtime) {
  auto spec = runtime.value.find("spec");
  if (spec == runtime.value.end() || !spec->is_object()) return kPlainMl;
  auto policy = spec->find("mlPolicy");
  if (policy == spec->end() || !policy->is_object()) return kPlainMl;
  for (const MlPolicyName& entry : ml_policy_names()) {
    if (policy->contains(entry.name)) return entry.name;
  }
  return kPlainMl;
}

DialectRange policy_releases(std::string_view policy) {
  for (const MlPolicyName& entry : ml_policy_names()) {
    if (policy == entry.name) return {entry.since, kDefaultDialect};
  }
  if (policy == kPlainMl) return {Dialect::kV2_0, kDefaultDialect};
  return {};
}

}  // namespace trainjob
