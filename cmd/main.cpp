// kubectl-trainjob: compiles Kubeflow TrainJobs into plain Kubernetes objects.
// As a kubectl plugin it is started as `kubectl trainjob ...` with the words after
// `trainjob` as arguments, so usage is written in that form.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "command.h"
#include "util/shared_library.h"
#include "util/terminal.h"

namespace trainjob {

const std::vector<CommandSpec>& command_table() {
  static const std::vector<CommandSpec> table = {
      {"init", "Write a starting TrainJob (ConfigMap, host path or image mode)", declare_init},
      {"render", "Compile TrainJobs into Jobs and a headless Service (offline)", declare_render},
      {"validate", "Check TrainJobs and runtimes and report every problem (offline)",
       declare_validate},
      {"convert",
       "Turn Training Operator v1 jobs into TrainJobs, or move TrainJobs between Trainer "
       "releases (offline)",
       declare_convert},
      {"krm",
       "Render as a KRM function (kpt fn eval) or a kustomize exec transformer plugin "
       "(offline)",
       declare_krm},
      {"run", "Run a TrainJob's pods as processes on this machine (--local)", declare_run},
      {"runtimes", "List the runtimes compiled into this binary", declare_runtimes},
      {"submit", "Render a TrainJob and apply it to the cluster (server-side apply)",
       declare_submit},
      {"status", "Show a submitted TrainJob's phase and, per node, what its pod is doing",
       declare_status},
      {"logs", "Print or follow the logs of every pod of a TrainJob", declare_logs},
      {"delete", "Delete every object of a submitted TrainJob", declare_delete},
      {"suspend", "Suspend a submitted TrainJob's Jobs (their pods are deleted)", declare_suspend},
      {"resume", "Resume a suspended TrainJob's Jobs", declare_resume},
      {"list", "List the TrainJobs submitted to a namespace", declare_list},
      {"version", "Print the version and the Trainer API versions understood", declare_version},
      {"completion", "Print a shell completion script (bash, zsh, fish)", declare_completion},
      // Hidden: answers completion scripts and kubectl's plugin completion.
      {"__complete", "Complete a command line (cobra's protocol)", declare_complete},
  };
  return table;
}

int report_diagnostics(Diagnostics* diagnostics) {
  diagnostics->sort();
  bool color = color_enabled(stderr);
  for (const Diagnostic& diagnostic : diagnostics->all()) {
    std::fprintf(stderr, "%s\n", format_diagnostic(diagnostic, color).c_str());
  }
  std::string not_kept = format_not_kept(*diagnostics);
  if (!not_kept.empty()) std::fprintf(stderr, "%s\n", not_kept.c_str());
  return diagnostics->has_errors() ? kExitFailure : kExitOk;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "%s %s\nSee 'kubectl trainjob --help'.\n",
               paint("error:", Tone::kError, color_enabled(stderr)).c_str(), message.c_str());
  return kExitUsage;
}

}  // namespace trainjob

namespace {

int run(int argc, char** argv) {
  using namespace trainjob;
  CLI::App app{"Compile and run Kubeflow TrainJobs on any Kubernetes cluster, no operator needed",
               "kubectl trainjob"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "kubectl-trainjob " TRAINJOB_VERSION);
  // Declaring every command's flags costs a third of `version`'s start-up, so when the
  // first word names a command only that one is declared; the others stay listed for help.
  // Completion walks the whole tree, and anything else (--help, a typo) gets all of it.
  std::string named = argc > 1 ? argv[1] : "";
  bool declare_all = named == "__complete" || named == "completion" ||
                     std::none_of(command_table().begin(), command_table().end(),
                                  [&](const CommandSpec& spec) { return spec.name == named; });
  std::vector<std::pair<CLI::App*, CommandRunner>> commands;
  for (const CommandSpec& spec : command_table()) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.summary);
    if (declare_all || spec.name == named) commands.emplace_back(sub, spec.declare(sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  for (auto& [sub, command] : commands) {
    if (sub->parsed()) return command();
  }
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const trainjob::MissingLibraryError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return trainjob::kExitFailure;
  } catch (const std::exception& e) {
    // Every expected failure is a diagnostic; this is a bug, but still no crash.
    std::fprintf(stderr, "error: internal error: %s\n", e.what());
    return trainjob::kExitFailure;
  }
}
