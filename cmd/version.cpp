// `kubectl trainjob version`.
#include <cstdio>

#include "command.h"
#include "model/dialect.h"

namespace trainjob {

CommandRunner declare_version(CLI::App* /*app*/) {
  return [] {
    std::printf("kubectl-trainjob %s\n", TRAINJOB_VERSION);
    std::printf(
        "Kubeflow Trainer API: trainer.kubeflow.org/v1alpha1 as of Trainer %s "
        "(default %s)\n",
        dialect_names().c_str(), dialect_info(kDefaultDialect).version);
    return static_cast<int>(kExitOk);
  };
}

}  // namespace trainjob
