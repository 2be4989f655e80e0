// `kubectl trainjob krm`: render as a KRM function (kpt) or a kustomize exec plugin.
#include <cstdio>
#include <memory>

#include "command.h"
#include "input_flags.h"
#include "krm/krm_function.h"
#include "load/file_system.h"

namespace trainjob {
namespace {

int run_krm(const std::string& config_path) {
  KrmRequest request{read_all_stdin(), config_path};
  RealFileSystem fs;
  Diagnostics diagnostics;
  std::string text = run_krm_function(request, fs, &diagnostics);
  int code = report_diagnostics(&diagnostics);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? code : kExitFailure;
}

}  // namespace

CommandRunner declare_krm(CLI::App* app) {
  auto config_path = std::make_shared<std::string>();
  app->add_option("config", *config_path,
                  "Plugin configuration file (kustomize's exec plugin form); without it, "
                  "standard input is a ResourceList (a KRM function, as kpt runs it) or a "
                  "plain YAML stream")
      ->type_name("CONFIG_FILE");
  app->footer(
      "Reads resources on standard input and writes them back with every TrainJob replaced by "
      "its rendered objects. Options come from the function configuration: apiVersion: "
      "kubectl-trainjob/v1, kind: TrainJobRenderer, with namespace, trainerVersion, target, "
      "generateSecrets.");
  return [config_path] { return run_krm(*config_path); };
}

}  // namespace trainjob
