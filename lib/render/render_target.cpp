#include "render/render_target.h"

namespace trainjob {

std::optional<RenderTarget> parse_render_target(std::string_view name) {
  if (name == "jobs") return RenderTarget::kJobs;
  if (name == "jobset") return RenderTarget::kJobSet;
  return std::nullopt;
}

std::optional<GitOpsOrder> parse_gitops_order(std::string_view name, std::string* error) {
  if (name == "none") return GitOpsOrder::kNone;
  if (name == "argocd") return GitOpsOrder::kArgoCD;
  if (name == "flux") {
    // A Flux Kustomization applies all its objects in one server-side apply; dependsOn
    // orders whole Kustomizations, never objects within one.
    *error =
        "Flux has no ordering among the objects of one Kustomization; use --target jobset "
        "(the JobSet controller honours dependsOn) or one Kustomization per step";
    return std::nullopt;
  }
  *error = "expected one of: " + std::string(kGitOpsOrderNames) + ", found \"" + std::string(name) +
           "\"";
  return std::nullopt;
}

bool check_gitops_order(RenderTarget target, GitOpsOrder order, std::string* error) {
  if (target != RenderTarget::kJobSet || order == GitOpsOrder::kNone) return true;
  *error =
      "--gitops-order applies to --target jobs: a JobSet starts its replicated jobs in "
      "dependsOn order itself";
  return false;
}

}  // namespace trainjob
