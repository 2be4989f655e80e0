#include "output/render_sink.h"

#include <cstdio>
#include <utility>

#include "output/diagnostic_report.h"

namespace trainjob {
namespace {

/// With --generate-secrets: says once which generated Secrets hold private keys.
void warn_private_keys(const std::string& names) {
  if (names.empty()) return;
  std::fprintf(stderr,
               "warning: the output holds private keys (Secret %s): keep it out of Git; "
               "`submit` generates its own and never replaces an existing one\n",
               names.c_str());
}

}  // namespace

RenderSink::RenderSink(RenderSinkOptions options)
    : options_(std::move(options)), stream_(options_.format), files_(options_.format) {}

void RenderSink::add(const RenderedUnit& unit, Diagnostics* diagnostics) {
  any_unit_ = true;
  for (const std::string& name : private_key_secrets(unit))
    private_keys_ += (private_keys_.empty() ? "" : ", ") + name;
  if (options_.output_dir.empty()) {
    stream_.add(unit, diagnostics);
  } else {
    files_.add(unit, &file_findings_);
  }
}

/// Writes under --output-dir (or compares, with --check); nothing at all on an error.
bool RenderSink::write_or_check(Diagnostics* diagnostics) {
  if (options_.check) {
    std::string diffs;
    check_output_dir(files_.files(), options_.output_dir, &diffs, diagnostics);
    std::fwrite(diffs.data(), 1, diffs.size(), stdout);
    std::fflush(stdout);
    return print_diagnostics(diagnostics, stderr);
  }
  OutputDirOptions dir_options;
  dir_options.prune = options_.prune;
  write_output_dir(files_.files(), options_.output_dir, dir_options, diagnostics);
  if (options_.generate_secrets && !diagnostics->has_errors()) warn_private_keys(private_keys_);
  return print_diagnostics(diagnostics, stderr);
}

bool RenderSink::finish(Diagnostics* diagnostics) {
  if (diagnostics->has_errors()) return print_diagnostics(diagnostics, stderr);
  for (const Diagnostic& finding : file_findings_.all())
    diagnostics->add(finding);
  if (diagnostics->has_errors()) return print_diagnostics(diagnostics, stderr);
  if (!options_.output_dir.empty()) return write_or_check(diagnostics);
  print_diagnostics(diagnostics, stderr);
  if (options_.generate_secrets) warn_private_keys(private_keys_);
  Diagnostics copy_findings;
  bool ok = stream_.copy_to(stdout, &copy_findings);
  print_diagnostics(&copy_findings, stderr);
  return ok;
}

}  // namespace trainjob
