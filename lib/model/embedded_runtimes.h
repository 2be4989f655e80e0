// The ClusterTrainingRuntimes compiled into the binary (runtimes/), as the last layers a
// TrainJob's runtimeRef is looked up in: render, validate, complete and convert all need them.
#ifndef TRAINJOB_MODEL_EMBEDDED_RUNTIMES_H_
#define TRAINJOB_MODEL_EMBEDDED_RUNTIMES_H_

#include <set>
#include <string>

#include "diag/diagnostic.h"
#include "model/runtime_registry.h"

namespace trainjob {

/// Adds the runtimes embedded in the binary as the last search layers: the Trainer v2.1
/// forms of `runtimes/v2.1/` for TrainJobs of v2.0-v2.1, then `runtimes/*.yaml`. With
/// `only`, just the files named `<name>.yaml` for those names: parsing all of them would
/// cost a render process more than compiling one TrainJob.
void add_embedded_runtimes(RuntimeRegistry* registry, Diagnostics* diagnostics,
                           const std::set<std::string>* only = nullptr);

}  // namespace trainjob

#endif  // TRAINJOB_MODEL_EMBEDDED_RUNTIMES_H_
