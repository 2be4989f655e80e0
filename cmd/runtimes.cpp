// `kubectl trainjob runtimes`: the runtimes this binary can compile against offline.
#include <algorithm>
#include <cstdio>

#include "command.h"
#include "model/embedded_runtimes.h"
#include "model/runtime_policy.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

std::string framework_of(const Document& runtime) {
  auto metadata = runtime.value.find("metadata");
  if (metadata == runtime.value.end() || !metadata->is_object()) return "-";
  auto labels = metadata->find("labels");
  if (labels == metadata->end()) return "-";
  return string_member(*labels, kRuntimeFrameworkLabel, "-");
}

int run_runtimes() {
  RuntimeRegistry registry;
  Diagnostics diagnostics;
  add_embedded_runtimes(&registry, &diagnostics);
  if (diagnostics.has_errors()) return report_diagnostics(&diagnostics);
  std::vector<Runtime> runtimes = registry.all();
  // By name, then oldest releases first: a runtime's forms read as one entry each.
  std::stable_sort(runtimes.begin(), runtimes.end(), [](const Runtime& a, const Runtime& b) {
    if (a.document->name() != b.document->name()) return a.document->name() < b.document->name();
    return a.releases.first < b.releases.first;
  });
  std::printf("%-30s %-8s %-8s %-10s %s\n", "NAME", "POLICY", "TRAINER", "FRAMEWORK", "KIND");
  for (const Runtime& runtime : runtimes) {
    const Document& document = *runtime.document;
    if (runtime.releases.empty()) continue;
    std::printf("%-30s %-8s %-8s %-10s %s\n", document.name().c_str(),
                runtime_policy(document).c_str(), runtime.releases.text().c_str(),
                framework_of(document).c_str(), document.kind().c_str());
  }
  return kExitOk;
}

}  // namespace

CommandRunner declare_runtimes(CLI::App* /*app*/) {
  return run_runtimes;
}

}  // namespace trainjob
