// `kubectl trainjob runtimes`: the runtimes this binary can compile against offline.
#include <cstdio>

#include "command.h"
#include "model/runtime_registry.h"
#include "render/render_inputs.h"

namespace trainjob {
namespace {

std::string framework_of(const Document& runtime) {
  auto metadata = runtime.value.find("metadata");
  if (metadata == runtime.value.end() || !metadata->is_object()) return "-";
  auto labels = metadata->find("labels");
  if (labels == metadata->end()) return "-";
  return string_member(*labels, "trainer.kubeflow.org/framework", "-");
}

int run_runtimes() {
  RuntimeRegistry registry;
  Diagnostics diagnostics;
  add_embedded_runtimes(&registry, &diagnostics);
  if (diagnostics.has_errors()) return report_diagnostics(&diagnostics);
  std::printf("%-28s %-24s %s\n", "NAME", "KIND", "FRAMEWORK");
  for (const Runtime& runtime : registry.all()) {
    const Document& document = *runtime.document;
    std::printf("%-28s %-24s %s\n", document.name().c_str(), document.kind().c_str(),
                framework_of(document).c_str());
  }
  return kExitOk;
}

}  // namespace

CommandRunner declare_runtimes(CLI::App* /*app*/) {
  return run_runtimes;
}

}  // namespace trainjob
