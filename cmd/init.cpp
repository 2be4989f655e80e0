// `kubectl trainjob init`: writes a starting TrainJob for one of the three script modes.
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "command.h"
#include "embed/embedded.h"
#include "init/init_trainjob.h"
#include "load/file_system.h"
#include "render/render_inputs.h"

namespace trainjob {
namespace {

struct InitFlags {
  InitOptions options;
  std::string mode = "configmap";
  std::string trainer_version = "2.3";
  std::string script;
};

bool read_script(const std::string& path, InitOptions* options) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "error: --script %s: cannot read the file\n", path.c_str());
    return false;
  }
  size_t slash = path.rfind('/');
  options->script_name = slash == std::string::npos ? path : path.substr(slash + 1);
  options->script_text = text.str();
  if (options->script_text->find('\0') != std::string::npos) {
    std::fprintf(stderr, "error: --script %s: expected a text file\n", path.c_str());
    return false;
  }
  return true;
}

bool is_embedded_runtime(const std::string& name) {
  for (const EmbeddedFile& file : embedded_runtimes()) {
    if (file.path == name + ".yaml") return true;
  }
  return false;
}

/// Runs every check of `validate` on what init wrote: what it prints must be valid.
bool check_generated(const std::string& yaml) {
  RenderRequest request;
  request.inputs = {{"-"}, false};
  request.compile.check_only = true;
  Diagnostics diagnostics;
  RealFileSystem fs;
  render_inputs(
      request, fs, [&] { return yaml; }, &diagnostics);
  if (!diagnostics.has_errors()) return true;
  std::fprintf(stderr, "error: these options make a TrainJob that does not validate:\n");
  diagnostics.sort();
  for (const Diagnostic& diagnostic : diagnostics.all())
    std::fprintf(stderr, "%s\n", format_diagnostic(diagnostic).c_str());
  return false;
}

int run_init(InitFlags flags) {
  std::optional<InitMode> mode = parse_init_mode(flags.mode);
  if (!mode) return usage_error("--mode: expected configmap, hostpath or image");
  flags.options.mode = *mode;
  std::optional<Dialect> version = parse_dialect(flags.trainer_version);
  if (!version) return usage_error("--trainer-version: expected one of " + dialect_names());
  flags.options.trainer_version = *version;
  if (!flags.script.empty()) {
    // Only a ConfigMap carries the script; in the other modes it is already where the
    // pods look, so only its name matters.
    if (*mode == InitMode::kConfigMap) {
      if (!read_script(flags.script, &flags.options)) return kExitFailure;
    } else {
      size_t slash = flags.script.rfind('/');
      flags.options.script_name =
          slash == std::string::npos ? flags.script : flags.script.substr(slash + 1);
    }
  }
  std::string yaml;
  std::string error;
  if (!init_trainjob(flags.options, &yaml, &error)) return usage_error(error);
  if (is_embedded_runtime(flags.options.runtime)) {
    if (!check_generated(yaml)) return kExitFailure;
  } else {
    std::fprintf(stderr,
                 "warning: runtime \"%s\" is not built in: check the TrainJob with "
                 "`kubectl trainjob validate --runtimes DIR`\n",
                 flags.options.runtime.c_str());
  }
  std::fwrite(yaml.data(), 1, yaml.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

}  // namespace

CommandRunner declare_init(CLI::App* app) {
  auto flags = std::make_shared<InitFlags>();
  InitOptions& options = flags->options;
  app->footer(
      "Prints the TrainJob (in configmap mode after the ConfigMap holding the script), "
      "commented where you have to decide something; redirect it to a file. Without flags: "
      "configmap mode, the built-in torch-distributed runtime, 2 nodes of 1 process, and a "
      "small PyTorch script.");
  app->add_option("NAME", options.name, "The TrainJob's name")->required();
  app->add_option("--mode", flags->mode, "How the script reaches the pods")
      ->check(CLI::IsMember({"configmap", "hostpath", "image"}))
      ->capture_default_str();
  app->add_option("--script", flags->script,
                  "The training script: read into the ConfigMap in configmap mode; in the "
                  "other modes only its file name is used, as the script the pods run")
      ->type_name("FILE");
  app->add_option("--image", options.image, "Image mode: the image holding the script");
  app->add_option("--host-path", options.host_path,
                  "Hostpath mode: the directory holding the script on every node")
      ->capture_default_str()
      ->type_name("DIR");
  app->add_option("--runtime", options.runtime, "The ClusterTrainingRuntime to use")
      ->capture_default_str()
      ->type_name("RUNTIME");
  app->add_option("--nodes", options.nodes, "Pods (numNodes)")->capture_default_str();
  app->add_option("--procs", options.procs,
                  "Workers per pod (numProcPerNode): an integer, or auto (left out from "
                  "Trainer 2.2 on), cpu, gpu (Trainer 2.1)")
      ->capture_default_str();
  app->add_option("--trainer-version", flags->trainer_version,
                  "The Trainer release to write for: 2.2 and 2.3 patch the runtime with "
                  "runtimePatches, 2.1 with podTemplateOverrides")
      ->capture_default_str()
      ->type_name("VERSION");
  app->add_option("--cpu", options.cpu, "CPU of each pod (requests and limits)")
      ->capture_default_str();
  app->add_option("--memory", options.memory, "Memory of each pod (requests and limits)")
      ->capture_default_str();
  app->add_option("-n,--namespace", options.name_space, "Namespace to write into the objects");
  return [flags] { return run_init(*flags); };
}

}  // namespace trainjob
