// The whole of `render`: inputs in, one unit of output per input document out.
#ifndef TRAINJOB_PIPELINE_RENDER_PIPELINE_H_
#define TRAINJOB_PIPELINE_RENDER_PIPELINE_H_

#include <set>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/file_system.h"
#include "load/input_files.h"
#include "model/runtime_registry.h"
#include "optimize/compile_optimization.h"
#include "pipeline/companion_namespace.h"
#include "render/compile.h"

namespace trainjob {

struct RenderRequest {
  InputOptions inputs;
  std::string runtimes_dir;  ///< `--runtimes DIR`, searched after the inputs
  /// Runtimes read from the cluster (`submit`), searched after `--runtimes DIR` and before
  /// the embedded runtimes, which they thus replace.
  std::vector<Document> cluster_runtimes;
  /// Includes `target` (--target jobs|jobset) and `gitops_order` (--gitops-order).
  CompileOptions compile;
  /// Also check every runtime among the inputs by itself, used or not (`validate`).
  bool check_runtimes = false;
  /// `--from-file` of run and submit builds the ConfigMap the Jobs mount, so a mounted
  /// ConfigMap missing from the inputs is no reason to warn (several are an error there).
  bool config_map_from_files = false;
  /// -n/--namespace was given: a document naming another namespace is refused, as kubectl
  /// refuses it, since which of the two was meant cannot be guessed.
  bool namespace_from_flag = false;
  /// `--trial` and `--seed` of an OptimizationJob (validate sets sweep.check_only).
  SweepOptions sweep;
};

struct RenderResult {
  std::vector<Document> documents;  ///< owns what the units point at
  SourceTexts texts;                ///< every input's text, for messages that quote it
  std::vector<RenderedUnit> units;  ///< in input order; runtimes are left out
};

/// Checks a TrainingRuntime or ClusterTrainingRuntime by itself: its JobSet template and
/// the Trainer's admission rules for it, those of release `release` where they differ.
void check_runtime_document(const Document& runtime, Dialect release, Diagnostics* diagnostics);

/// The runtimeRef name of a TrainJob document (of an OptimizationJob: its template's).
std::string runtime_ref_name(const Document& trainjob);

/// Why inputs of runtimes alone give no objects, and how to pass a runtime instead: said by
/// `render` (which prints nothing for them) and `submit` (which has nothing to apply).
inline constexpr const char* kRuntimesOnlyHint =
    "a TrainingRuntime or ClusterTrainingRuntime is not applied to the cluster: it is "
    "compiled, client-side, into the TrainJobs that use it. Pass it with -f next to the "
    "TrainJob (-f runtime.yaml -f trainjob.yaml), or put it in a directory given with "
    "--runtimes DIR";
/// Whether `documents` hold a runtime.
bool has_runtime_document(const std::vector<Document>& documents);

/// Adds the runtime search layers after the inputs' own: `--runtimes DIR`, then the
/// embedded runtimes of the names in `referenced`.
void add_search_layers(const RenderRequest& request, const FileSystem& fs,
                       const std::set<std::string>& referenced, RuntimeRegistry* registry,
                       Diagnostics* diagnostics);

/// Checks and compiles `documents` (all the inputs, or one piece of them) against
/// `registry` with `options` (request.compile plus the inputs' ConfigMaps): one unit per
/// document that is not a runtime, in order, pointing into `documents`. `companions` has
/// noted all the inputs: the documents passed through get the jobs' namespace from it.
std::vector<RenderedUnit> render_block(const std::vector<Document>& documents,
                                       const RuntimeRegistry& registry,
                                       const RenderRequest& request, const CompileOptions& options,
                                       const CompanionNamespaces& companions,
                                       Diagnostics* diagnostics);

/// Loads, resolves and compiles. The result is only meaningful when `diagnostics`
/// holds no errors afterwards.
RenderResult render_inputs(const RenderRequest& request, const FileSystem& fs,
                           const StdinReader& read_stdin, Diagnostics* diagnostics);

/// The same for documents already loaded (the items of a KRM ResourceList): resolves and
/// compiles them, `request.inputs` unused. `texts` are kept for messages that quote input.
RenderResult render_documents(std::vector<Document> documents, SourceTexts texts,
                              const RenderRequest& request, const FileSystem& fs,
                              Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_RENDER_PIPELINE_H_
