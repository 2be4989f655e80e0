// `kubectl trainjob convert`: Training Operator v1 kinds into TrainJobs, and TrainJobs and
// runtimes from one Trainer API release's form to another's, offline.
#include <cstdio>
#include <memory>

#include "command.h"
#include "convert/convert_inputs.h"
#include "input_flags.h"
#include "load/file_system.h"
#include "model/dialect.h"

namespace trainjob {
namespace {

struct ConvertFlags {
  InputOptions inputs;
  std::string to = dialect_info(kDefaultDialect).version;
  std::string output = "yaml";
  std::string runtime;
  bool with_runtime = false;
};

int run_convert(const ConvertFlags& flags) {
  ConvertRequest request;
  request.inputs = flags.inputs;
  if (flags.to == "trainjob") {
    request.release = std::nullopt;
  } else {
    request.release = parse_dialect(flags.to);
    if (!request.release) {
      return usage_error("--to: expected trainjob or one of " + dialect_names() + ", found \"" +
                         flags.to + "\"");
    }
  }
  request.runtime_name = flags.runtime;
  request.with_runtime = flags.with_runtime;
  request.format = *parse_output_format(flags.output);
  RealFileSystem fs;
  Diagnostics diagnostics;
  std::string text = convert_inputs(request, fs, read_all_stdin, &diagnostics);
  if (report_diagnostics(&diagnostics) != kExitOk) return kExitFailure;
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

}  // namespace

CommandRunner declare_convert(CLI::App* app) {
  auto flags = std::make_shared<ConvertFlags>();
  add_file_flags(app, &flags->inputs, "to convert");
  app->add_option(
         "--to", flags->to,
         "Trainer API release to write TrainJobs and runtimes for (" + dialect_names() +
             "), or trainjob: only the Training Operator v1 kinds are converted, to the default "
             "release")
      ->capture_default_str()
      ->type_name("RELEASE");
  app->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  app->add_option("--runtime", flags->runtime,
                  "Runtime the TrainJobs made from Training Operator v1 kinds use (default: the "
                  "kind's stock runtime, e.g. torch-distributed)")
      ->type_name("RUNTIME");
  app->add_flag("--with-runtime", flags->with_runtime,
                "Also write, for each job of a Training Operator v1 kind, a TrainingRuntime named "
                "after it for the parts of its pod template no TrainJob override can carry, and "
                "point the TrainJob at it");
  return [flags] { return run_convert(*flags); };
}

}  // namespace trainjob
