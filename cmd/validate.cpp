// `kubectl trainjob validate`: every problem of TrainJobs and runtimes, offline, in one run.
#include <cstdio>
#include <memory>

#include "command.h"
#include "input_flags.h"
#include "load/file_system.h"
#include "output/diagnostic_report.h"
#include "pipeline/validate_pipeline.h"
#include "util/terminal.h"

namespace trainjob {
namespace {

struct ValidateFlags {
  InputFlags inputs;
  std::string output = "text";
  bool strict = false;
};

std::string format_report(const ValidateFlags& flags, const Diagnostics& diagnostics,
                          const RenderResult& result) {
  if (flags.output == "json") return format_json_report(diagnostics);
  if (flags.output == "junit") {
    return format_junit_report(diagnostics, result.documents, result.texts);
  }
  return format_text_report(diagnostics, result.texts, color_enabled(stdout));
}

int run_validate(const ValidateFlags& flags) {
  std::optional<RenderRequest> request = make_request(flags.inputs);
  if (!request) return kExitUsage;
  RealFileSystem fs;
  Diagnostics diagnostics;
  RenderResult result = validate_inputs(*request, fs, read_all_stdin, &diagnostics);
  diagnostics.sort();
  std::string report = format_report(flags, diagnostics, result);
  std::fwrite(report.data(), 1, report.size(), stdout);
  keep_until_exit(std::move(result));
  bool failed = diagnostics.has_errors() || (flags.strict && !diagnostics.all().empty());
  return failed ? kExitFailure : kExitOk;
}

}  // namespace

CommandRunner declare_validate(CLI::App* app) {
  auto flags = std::make_shared<ValidateFlags>();
  add_input_and_gang_flags(app, &flags->inputs);
  app->add_option("-o,--output", flags->output, "Report format")
      ->check(CLI::IsMember({"text", "json", "junit"}))
      ->capture_default_str();
  app->add_flag("--strict", flags->strict, "Fail on warnings too");
  return [flags] { return run_validate(*flags); };
}

}  // namespace trainjob
