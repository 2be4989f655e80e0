// --target and --gitops-order: names, the combination rule, and the Argo CD sync waves.
#include "render/gitops_order.h"

#include <doctest/doctest.h>

#include "render/render_target.h"

using trainjob::GitOpsOrder;
using trainjob::Json;
using trainjob::RenderTarget;
using trainjob::ReplicatedJob;

namespace {

ReplicatedJob job(const std::string& name, const char* depends_on = nullptr) {
  ReplicatedJob out;
  out.name = name;
  if (depends_on != nullptr) out.depends_on = Json::parse(depends_on);
  return out;
}

}  // namespace

TEST_CASE("gitops order: targets and orders by name") {
  CHECK(trainjob::parse_render_target("jobs") == RenderTarget::kJobs);
  CHECK(trainjob::parse_render_target("jobset") == RenderTarget::kJobSet);
  CHECK(!trainjob::parse_render_target("JobSet"));
  std::string error;
  CHECK(trainjob::parse_gitops_order("argocd", &error) == GitOpsOrder::kArgoCD);
  CHECK(trainjob::parse_gitops_order("none", &error) == GitOpsOrder::kNone);
  CHECK(!trainjob::parse_gitops_order("flux", &error));
  CHECK(error.find("--target jobset") != std::string::npos);
  CHECK(!trainjob::parse_gitops_order("argo", &error));
  CHECK(error == "expected one of: none, argocd, found \"argo\"");
  CHECK(trainjob::check_gitops_order(RenderTarget::kJobs, GitOpsOrder::kArgoCD, &error));
  CHECK(trainjob::check_gitops_order(RenderTarget::kJobSet, GitOpsOrder::kNone, &error));
  CHECK(!trainjob::check_gitops_order(RenderTarget::kJobSet, GitOpsOrder::kArgoCD, &error));
}

TEST_CASE("gitops order: Complete dependencies start a later wave, Ready ones do not") {
  // torchtune: two initializers, then the trainer once both are Complete.
  std::vector<ReplicatedJob> tune = {
      job("dataset-initializer"), job("model-initializer"),
      job("node", R"([{"name":"dataset-initializer","status":"Complete"},
                      {"name":"model-initializer","status":"Complete"}])")};
  CHECK(trainjob::sync_waves(tune) == std::vector<int64_t>{0, 0, 1});
  // MPI v2.3: the launcher waits for the nodes to be Ready, so it shares their wave.
  std::vector<ReplicatedJob> mpi = {job("node"),
                                    job("launcher", R"([{"name":"node","status":"Ready"}])")};
  CHECK(trainjob::sync_waves(mpi) == std::vector<int64_t>{0, 0});
  // A chain mixing both: Ready keeps the wave of what it waits for.
  std::vector<ReplicatedJob> chain = {
      job("init"), job("node", R"([{"name":"init","status":"Complete"}])"),
      job("launcher", R"([{"name":"node","status":"Ready"}])"),
      job("report", R"([{"name":"launcher","status":"Complete"}])")};
  CHECK(trainjob::sync_waves(chain) == std::vector<int64_t>{0, 1, 1, 2});
}
