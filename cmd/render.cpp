// `kubectl trainjob render`: TrainJobs -> Jobs + headless Service, offline.
#include <cstdio>
#include <memory>

#include "command.h"
#include "input_flags.h"
#include "load/file_system.h"
#include "output/render_output.h"
#include "render/jobset_labels.h"

namespace trainjob {
namespace {

struct RenderFlags {
  InputFlags inputs;
  std::string output = "yaml";
  std::string output_dir;
  bool generate_secrets = false;
};

/// Generated Secrets hold private keys: say so once, as the output is usually committed.
void warn_generated_secrets(const RenderResult& result) {
  int secrets = 0;
  for (const Json* object : all_objects(result.units)) {
    const Json& annotations = (*object)["metadata"].value("annotations", Json::object());
    if ((*object)["kind"] == "Secret" && annotations.contains(kCreateOnlyIfAbsentAnnotation)) {
      ++secrets;
    }
  }
  if (secrets == 0) return;
  std::fprintf(stderr,
               "warning: the output holds %d generated Secret(s) with a private key: keep it "
               "out of Git and shared logs\n",
               secrets);
}

/// Prints the objects, or writes them under --output-dir; nothing at all on an error.
int print_or_write(const RenderFlags& flags, OutputFormat format, const RenderResult& result,
                   Diagnostics* diagnostics) {
  if (diagnostics->has_errors()) return report_diagnostics(diagnostics);
  if (!flags.output_dir.empty()) {
    write_output_dir(result.units, flags.output_dir, format, diagnostics);
    return report_diagnostics(diagnostics);
  }
  std::string text = format_objects(all_objects(result.units), format);
  report_diagnostics(diagnostics);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

int run_render(const RenderFlags& flags) {
  std::optional<RenderRequest> request = make_request(flags.inputs);
  if (!request) return kExitUsage;
  request->compile.generate_secrets = flags.generate_secrets;
  OutputFormat format = *parse_output_format(flags.output);
  RealFileSystem fs;
  Diagnostics diagnostics;
  RenderResult result = render_inputs(*request, fs, read_all_stdin, &diagnostics);
  if (flags.generate_secrets && !diagnostics.has_errors()) warn_generated_secrets(result);
  int code = print_or_write(flags, format, result, &diagnostics);
  keep_until_exit(std::move(result));
  return code;
}

}  // namespace

CommandRunner declare_render(CLI::App* app) {
  auto flags = std::make_shared<RenderFlags>();
  add_input_flags(app, &flags->inputs);
  app->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  app->add_option("--output-dir", flags->output_dir,
                  "Write one file per TrainJob into DIR instead of printing")
      ->type_name("DIR");
  app->add_flag("--generate-secrets", flags->generate_secrets,
                "Also print the Secrets a policy needs (MPI's SSH key) with a fresh key; "
                "without it they are only referenced and must exist");
  return [flags] { return run_render(*flags); };
}

}  // namespace trainjob
