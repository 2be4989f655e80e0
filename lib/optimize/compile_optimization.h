// An OptimizationJob compiled: its CEL rules, its trials, and each trial compiled as the
// TrainJob it is, every finding located in the OptimizationJob's own file.
#ifndef TRAINJOB_OPTIMIZE_COMPILE_OPTIMIZATION_H_
#define TRAINJOB_OPTIMIZE_COMPILE_OPTIMIZATION_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/runtime_registry.h"
#include "render/compile.h"
#include "schema/input_schemas.h"

namespace trainjob {

struct SweepOptions {
  std::optional<int64_t> trial;  ///< `--trial K`: that trial alone (from 1)
  std::optional<int64_t> seed;   ///< `--seed N`: for a random search whose spec has none
  /// `validate`: a random search without a seed is checked with seed 0 instead of refused
  /// (render refuses it: its output would change on every run). Every trial is compiled,
  /// as render compiles them.
  bool check_only = false;
};

/// The trials' objects, trial after trial, each marked with the trial's labels and
/// assignment; nothing when there were errors. Schema findings of the template go to
/// `schema_findings` (they are weighed against the semantic ones as any document's).
std::vector<Json> compile_optimization_job(const Document& document,
                                           const RuntimeRegistry& registry,
                                           const CompileOptions& options, const SweepOptions& sweep,
                                           InputSchemas* schemas, Diagnostics* schema_findings,
                                           Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_OPTIMIZE_COMPILE_OPTIMIZATION_H_
