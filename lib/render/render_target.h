// What `render` compiles a TrainJob into (`--target`) and the apply-order annotations for
// GitOps controllers (`--gitops-order`), as values the render request carries.
#ifndef TRAINJOB_RENDER_RENDER_TARGET_H_
#define TRAINJOB_RENDER_RENDER_TARGET_H_

#include <optional>
#include <string>
#include <string_view>

namespace trainjob {

enum class RenderTarget {
  kJobs,    ///< batch/v1 Jobs and a headless Service: runs with no controller installed
  kJobSet,  ///< one jobset.x-k8s.io/v1alpha2 JobSet, as the Trainer controller creates it
};

enum class GitOpsOrder {
  kNone,
  kArgoCD,  ///< argocd.argoproj.io/sync-wave on each Job: its depth in the dependsOn graph
};

inline constexpr const char* kRenderTargetNames = "jobs, jobset";
inline constexpr const char* kGitOpsOrderNames = "none, argocd";

/// `--target NAME`; nothing for an unknown name.
std::optional<RenderTarget> parse_render_target(std::string_view name);
/// `--gitops-order NAME`; nothing and the reason in `error` for a name we cannot honour.
std::optional<GitOpsOrder> parse_gitops_order(std::string_view name, std::string* error);
/// A usage error for an order that means nothing for the target (JobSet orders its jobs).
bool check_gitops_order(RenderTarget target, GitOpsOrder order, std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_RENDER_TARGET_H_
