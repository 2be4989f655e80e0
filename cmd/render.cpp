// `kubectl trainjob render`: TrainJobs -> Jobs + headless Service (or JobSets), offline.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <unistd.h>

#include "command.h"
#include "input_flags.h"
#include "load/file_system.h"
#include "output/render_output.h"
#include "output/spilled_stream.h"
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

/// With --generate-secrets: says once which generated Secrets hold private keys.
void warn_private_keys(const std::string& names) {
  if (names.empty()) return;
  std::fprintf(stderr,
               "warning: the output holds private keys (Secret %s): keep it out of Git; "
               "`submit` generates its own and never replaces an existing one\n",
               names.c_str());
}

/// Where the units go: a stream for stdout, or the files of --output-dir.
struct RenderSink {
  explicit RenderSink(OutputFormat format) : stream(format), files(format) {}
  SpilledStream stream;
  OutputDirFiles files;
  Diagnostics file_findings;  ///< --output-dir's own: said only when the inputs are fine
  std::string private_keys;   ///< names of the Secrets with generated keys
};

/// Writes under --output-dir (or compares, with --check); nothing at all on an error.
int write_or_check(const RenderFlags& flags, RenderSink* sink, Diagnostics* diagnostics) {
  if (flags.check) {
    std::string diffs;
    check_output_dir(sink->files.files(), flags.output_dir, &diffs, diagnostics);
    std::fwrite(diffs.data(), 1, diffs.size(), stdout);
    std::fflush(stdout);
    return report_diagnostics(diagnostics);
  }
  OutputDirOptions options;
  options.prune = flags.prune;
  write_output_dir(sink->files.files(), flags.output_dir, options, diagnostics);
  if (flags.generate_secrets && !diagnostics->has_errors()) warn_private_keys(sink->private_keys);
  return report_diagnostics(diagnostics);
}

/// Prints the objects, or writes them under --output-dir; nothing at all on an error.
int print_or_write(const RenderFlags& flags, RenderSink* sink, Diagnostics* diagnostics) {
  if (diagnostics->has_errors()) return report_diagnostics(diagnostics);
  for (const Diagnostic& finding : sink->file_findings.all())
    diagnostics->add(finding);
  if (diagnostics->has_errors()) return report_diagnostics(diagnostics);
  if (!flags.output_dir.empty()) return write_or_check(flags, sink, diagnostics);
  report_diagnostics(diagnostics);
  if (flags.generate_secrets) warn_private_keys(sink->private_keys);
  Diagnostics copy_findings;
  bool ok = sink->stream.copy_to(stdout, &copy_findings);
  report_diagnostics(&copy_findings);
  return ok ? kExitOk : kExitFailure;
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
  RenderSink sink(*parse_output_format(flags.output));
  bool any_unit = false;
  render_stream(
      *request, fs,
      [&](const RenderedUnit& unit) {
        any_unit = true;
        for (const std::string& name : private_key_secrets(unit))
          sink.private_keys += (sink.private_keys.empty() ? "" : ", ") + name;
        if (flags.output_dir.empty()) {
          sink.stream.add(unit, &diagnostics);
        } else {
          sink.files.add(unit, &sink.file_findings);
        }
      },
      &diagnostics);
  // Every document but a runtime becomes output: without errors, nothing out means runtimes.
  if (!any_unit && !diagnostics.has_errors())
    std::fprintf(stderr,
                 "note: the inputs hold only runtimes, and render prints nothing for "
                 "them: %s\n",
                 kRuntimesOnlyHint);
  return print_or_write(flags, &sink, &diagnostics);
}

}  // namespace

CommandRunner declare_render(CLI::App* app) {
  auto flags = std::make_shared<RenderFlags>();
  add_input_flags(app, &flags->inputs);
  add_gang_flag(app, &flags->inputs);
  app->get_option("-f")->required(false);  // a pipe serves as well: see default_to_stdin
  app->footer(
      "Without -f, the manifests are read from standard input when it is not a terminal, so "
      "the plugin serves as helm's post-renderer: helm install --post-renderer "
      "kubectl-trainjob --post-renderer-args render. Objects other than TrainJobs and "
      "Training Operator jobs pass through unchanged.");
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
