// `kubectl trainjob init`: writes a starting TrainJob for one of the three script modes.
#include <cstdio>
#include <memory>

#include "cluster_flags.h"
#include "command.h"
#include "init/init_script.h"
#include "init/init_trainjob.h"
#include "model/dialect.h"

namespace trainjob {
namespace {

struct InitFlags {
  InitOptions options;
  std::string mode = "configmap";
  std::string trainer_version = dialect_info(kDefaultDialect).version;
  std::string script;
};

int run_init(InitFlags flags) {
  std::optional<InitMode> mode = parse_init_mode(flags.mode);
  if (!mode) return usage_error("--mode: expected configmap, hostpath or image");
  flags.options.mode = *mode;
  std::optional<Dialect> version = parse_dialect(flags.trainer_version);
  if (!version) return usage_error("--trainer-version: expected one of " + dialect_names());
  flags.options.trainer_version = *version;
  std::string error;
  std::string note;
  if (!flags.script.empty() && !add_init_script(flags.script, &flags.options, &error, &note)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return kExitFailure;
  }
  if (!note.empty()) std::fprintf(stderr, "note: %s\n", note.c_str());
  std::string yaml;
  if (!init_trainjob(flags.options, &yaml, &error)) return usage_error(error);
  if (is_embedded_runtime(flags.options.runtime)) {
    Diagnostics diagnostics = check_generated_trainjob(yaml);
    if (diagnostics.has_errors()) {
      std::fprintf(stderr, "error: these options make a TrainJob that does not validate:\n");
      for (const Diagnostic& diagnostic : diagnostics.all())
        std::fprintf(stderr, "%s\n", format_diagnostic(diagnostic).c_str());
      return kExitFailure;
    }
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
                  "The Trainer release to write for: 2.2 and later patch the runtime with "
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
