#include "model/runtime_policy.h"

namespace trainjob {
namespace {

struct PolicyReleases {
  const char* policy;
  Dialect since;
};

/// Plugin directories per tag of kubeflow/trainer: v2.0 has torch, mpi and plainml;
/// v2.2 adds jax, xgboost and flux.
constexpr PolicyReleases kPolicyReleases[] = {
    {"torch", Dialect::kV2_0},   {"mpi", Dialect::kV2_0},  {"jax", Dialect::kV2_2},
    {"xgboost", Dialect::kV2_2}, {"flux", Dialect::kV2_2}, {"plainml", Dialect::kV2_0},
};

}  // namespace

std::string runtime_policy(const Document& runtime) {
  auto spec = runtime.value.find("spec");
  if (spec == runtime.value.end() || !spec->is_object()) return "plainml";
  auto policy = spec->find("mlPolicy");
  if (policy == spec->end() || !policy->is_object()) return "plainml";
  for (const PolicyReleases& entry : kPolicyReleases) {
    if (policy->contains(entry.policy)) return entry.policy;
  }
  return "plainml";
}

DialectRange policy_releases(std::string_view policy) {
  for (const PolicyReleases& entry : kPolicyReleases) {
    if (policy == entry.policy) return {entry.since, kDefaultDialect};
  }
  return {};
}

}  // namespace trainjob
