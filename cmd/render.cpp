// `kubectl trainjob render`: TrainJobs -> Jobs + headless Service, offline.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>

#include "command.h"
#include "load/file_system.h"
#include "model/dialect.h"
#include "output/render_output.h"
#include "render/render_inputs.h"

namespace trainjob {
namespace {

struct RenderFlags {
  std::vector<std::string> files;
  bool recursive = false;
  std::string output = "yaml";
  std::string runtimes_dir;
  std::string output_dir;
  std::string trainer_version;
  std::string name_space;
};

std::string read_all_stdin() {
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

int run_render(const RenderFlags& flags) {
  RenderRequest request;
  request.inputs = {flags.files, flags.recursive};
  request.runtimes_dir = flags.runtimes_dir;
  request.compile.default_namespace = flags.name_space;
  if (!flags.trainer_version.empty()) {
    request.compile.dialect = parse_dialect(flags.trainer_version);
    if (!request.compile.dialect) {
      return usage_error("--trainer-version: expected one of " + dialect_names() + ", found \"" +
                         flags.trainer_version + "\"");
    }
  }
  OutputFormat format = *parse_output_format(flags.output);
  RealFileSystem fs;
  Diagnostics diagnostics;
  RenderResult result = render_inputs(request, fs, read_all_stdin, &diagnostics);
  // Nothing is printed or written unless every TrainJob compiled.
  if (diagnostics.has_errors()) return report_diagnostics(&diagnostics);
  if (!flags.output_dir.empty()) {
    write_output_dir(result.units, flags.output_dir, format, fs, &diagnostics);
    return report_diagnostics(&diagnostics);
  }
  std::string text = format_objects(all_objects(result.units), format);
  report_diagnostics(&diagnostics);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

}  // namespace

CommandRunner declare_render(CLI::App* app) {
  auto flags = std::make_shared<RenderFlags>();
  app->add_option("-f,--filename", flags->files,
                  "TrainJob files or directories (.yaml, .yml, .json); - reads stdin")
      ->required()
      ->type_name("PATH");
  app->add_flag("-R,--recursive", flags->recursive, "Walk directories given with -f recursively");
  app->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  app->add_option("--runtimes", flags->runtimes_dir,
                  "Directory of (Cluster)TrainingRuntimes, searched after the inputs and before "
                  "the embedded runtimes")
      ->type_name("DIR");
  app->add_option("--output-dir", flags->output_dir,
                  "Write one file per TrainJob into DIR instead of printing")
      ->type_name("DIR");
  app->add_option("--trainer-version", flags->trainer_version,
                  "Kubeflow Trainer API to follow (" + dialect_names() +
                      "); detected from the fields used when unset")
      ->type_name("VERSION");
  app->add_option("-n,--namespace", flags->name_space,
                  "Namespace for TrainJobs that do not set one");
  return [flags] { return run_render(*flags); };
}

}  // namespace trainjob
