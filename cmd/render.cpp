// `kubectl trainjob render`: TrainJobs -> Jobs + headless Service (or JobSets), offline.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <unistd.h>

#include "command.h"
#include "input_flags.h"
#include "load/file_system.h"
#include "output/render_sink.h"
#include "pipeline/render_stream.h"
#include "render/render_target.h"

namespace trainjob {
namespace {

struct RenderFlags {
  InputFlags inputs;
  std::string output = "yaml";
  std::string output_dir;
  bool check = false;
  bool prune = false;
  bool generate_secrets = false;
  std::string target = "jobs";
  std::string gitops_order = "none";
};

/// --target and --gitops-order into the request; a usage error (exit 2) when they are wrong.
bool set_target(const RenderFlags& flags, RenderRequest* request) {
  std::optional<RenderTarget> target = parse_render_target(flags.target);
  if (!target) {
    usage_error("--target: expected one of " + std::string(kRenderTargetNames) + ", found \"" +
                flags.target + "\"");
    return false;
  }
  std::string error;
  std::optional<GitOpsOrder> order = parse_gitops_order(flags.gitops_order, &error);
  if (!order) {
    usage_error("--gitops-order: " + error);
    return false;
  }
  if (!check_gitops_order(*target, *order, &error)) {
    usage_error(error);
    return false;
  }
  request->compile.render_target = *target;
  request->compile.gitops_order = *order;
  request->compile.warn_gitops_traps = true;
  return true;
}

/// Without -f, standard input when it is not a terminal: helm's --post-renderer runs
/// `kubectl-trainjob render` with the chart's manifests piped in.
bool default_to_stdin(InputOptions* inputs) {
  if (!inputs->paths.empty()) return true;
  if (isatty(STDIN_FILENO) != 0) return false;
  inputs->paths.push_back("-");
  return true;
}

int run_render(RenderFlags flags) {
  if (!default_to_stdin(&flags.inputs.inputs))
    return usage_error("--filename is required (or pipe the manifests to standard input)");
  if ((flags.check || flags.prune) && flags.output_dir.empty())
    return usage_error(std::string(flags.check ? "--check" : "--prune") + " needs --output-dir");
  if (flags.check && flags.generate_secrets)
    return usage_error(
        "--check cannot compare --generate-secrets output: its keys are new on "
        "every run");
  std::optional<RenderRequest> request = make_request(flags.inputs);
  if (!request || !set_target(flags, &*request)) return kExitUsage;
  request->compile.generate_secrets = flags.generate_secrets;
  RealFileSystem fs;
  Diagnostics diagnostics;
  diagnostics.set_limit(kShownFindings);  // a finding per TrainJob must not grow the memory
  RenderSink sink({*parse_output_format(flags.output), flags.output_dir, flags.check, flags.prune,
                   flags.generate_secrets});
  render_stream(
      *request, fs, [&](const RenderedUnit& unit) { sink.add(unit, &diagnostics); }, &diagnostics);
  // Every document but a runtime becomes output: without errors, nothing out means runtimes.
  if (sink.empty() && !diagnostics.has_errors())
    std::fprintf(stderr,
                 "note: the inputs hold only runtimes, and render prints nothing for "
                 "them: %s\n",
                 kRuntimesOnlyHint);
  return sink.finish(&diagnostics) ? kExitOk : kExitFailure;
}

}  // namespace

CommandRunner declare_render(CLI::App* app) {
  auto flags = std::make_shared<RenderFlags>();
  add_input_and_gang_flags(app, &flags->inputs);
  app->get_option("-f")->required(false);  // a pipe serves as well: see default_to_stdin
  app->footer(
      "Without -f, the manifests are read from standard input when it is not a terminal, so "
      "the plugin serves as helm's post-renderer: helm install --post-renderer "
      "kubectl-trainjob --post-renderer-args render. Objects other than TrainJobs and the "
      "Training Operator v1 kinds pass through unchanged.");
  app->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  app->add_option("--output-dir", flags->output_dir,
                  "Write one file per TrainJob into DIR instead of printing")
      ->type_name("DIR");
  app->add_flag("--check", flags->check,
                "With --output-dir: change nothing; exit 1 and print a diff when DIR is not "
                "what render would write there (changed, missing or stale files)");
  app->add_flag("--prune", flags->prune,
                "With --output-dir: also remove the files an earlier render wrote there that "
                "no longer come from an input");
  app->add_flag("--generate-secrets", flags->generate_secrets,
                "Include the Secrets a policy needs (MPI's SSH key, Flux's CURVE certificate) "
                "with freshly generated keys; without it they are left out and must exist");
  app->add_option("--target", flags->target,
                  "What each TrainJob becomes: jobs (Jobs and a headless Service, no "
                  "controller needed) or jobset (the JobSet the Trainer would create)")
      ->type_name("jobs|jobset")
      ->capture_default_str();
  app->add_option("--gitops-order", flags->gitops_order,
                  "Apply-order annotations on the Jobs: none or argocd (sync waves that follow "
                  "dependsOn; ttlSecondsAfterFinished is dropped, or Argo CD would re-create "
                  "the Jobs it deletes)")
      ->type_name("none|argocd")
      ->capture_default_str();
  add_sweep_flags(app, &flags->inputs,
                  "Of an OptimizationJob, render trial K alone (trials count from 1)",
                  "without either, render refuses it");
  return [flags] { return run_render(*flags); };
}

}  // namespace trainjob
