#include "pipeline/render_pipeline.h"

#include <algorithm>

#include "legacy/api_match.h"
#include "legacy/legacy_compile.h"
#include "legacy/legacy_kinds.h"
#include "load/yaml_loader.h"
#include "model/embedded_runtimes.h"
#include "model/trainjob.h"
#include "pipeline/input_names.h"
#include "pipeline/kueue_topology.h"
#include "render/compile_state.h"
#include "render/ml_policy.h"
#include "render/runtime_template.h"
#include "schema/schema_pass.h"
#include "util/parallel.h"

namespace trainjob {
namespace {

void add_directory_runtimes(const std::string& dir, const FileSystem& fs, RuntimeRegistry* registry,
                            Diagnostics* diagnostics) {
  if (fs.stat(dir) != FileSystem::Kind::kDirectory) {
    diagnostics->error(dir, {}, "", "--runtimes: not a directory");
    return;
  }
  InputOptions options{{dir}, false};
  std::vector<Document> documents = load_inputs(
      options, fs, [] { return std::string(); }, diagnostics);
  registry->add_layer("--runtimes " + dir, documents);
}

bool check_object(const Document& document, Diagnostics* diagnostics) {
  if (!document.api_version().empty() && !document.kind().empty()) return true;
  diagnostics->error(document.file, document.pos_of(""), "",
                     "expected a Kubernetes object with apiVersion and kind");
  return false;
}

/// What checking and compiling one document produced.
/// A Training Operator v1 job has no JobSet of its own: the Trainer never made one for it.
void refuse_legacy_jobset(const Document& document, Diagnostics* diagnostics) {
  FieldReader reader(document, diagnostics);
  reader.error("kind", "--target jobset compiles TrainJobs, and " + document.kind() +
                           " is a Training Operator v1 kind; convert it first (`kubectl "
                           "trainjob convert`) or render it with --target jobs");
}

/// A document's own namespace against the one -n/--namespace names.
void check_namespace_flag(const Document& document, const std::string& flag,
                          Diagnostics* diagnostics) {
  const std::string& own = document.name_space();
  if (own.empty() || own == flag) return;
  diagnostics->error(document.file, document.pos_of("metadata.namespace"), "metadata.namespace",
                     document.kind() + " " + document.name() + " names namespace \"" + own +
                         "\", but --namespace says \"" + flag + "\": pass --namespace=" + own +
                         " (or leave -n out), or remove metadata.namespace from the file");
}

struct DocumentWork {
  Diagnostics schema_findings;
  Diagnostics semantic_findings;
  std::vector<Json> objects;
};

/// The release a runtime among the inputs is checked for by itself: --trainer-version, else
/// the default. One a TrainJob among the inputs uses is checked for that TrainJob's release
/// when compiled, so by itself it gets the oldest release's rules, as before 2.4 (2.4's are
/// then warnings, which the compile's errors replace).
Dialect runtime_check_release(const Document& runtime, const std::set<std::string>& referenced,
                              std::optional<Dialect> forced) {
  if (forced) return *forced;
  return referenced.count(runtime.name()) > 0 ? Dialect::kV2_1 : kDefaultDialect;
}

/// The runtimeRef names of the TrainJobs among the inputs, and of OptimizationJobs' templates.
std::set<std::string> referenced_runtimes(const std::vector<Document>& documents) {
  std::set<std::string> names;
  for (const Document& document : documents) {
    if (is_trainjob_document(document) || is_optimization_job_document(document))
      names.insert(runtime_ref_name(document));
  }
  return names;
}

/// The trials of an OptimizationJob, each compiled as a TrainJob.
std::vector<Json> compile_sweep(const Document& document, const RuntimeRegistry& registry,
                                const RenderRequest& request, const CompileOptions& options,
                                InputSchemas* schemas, DocumentWork* work) {
  return compile_optimization_job(document, registry, options, request.sweep, schemas,
                                  &work->schema_findings, &work->semantic_findings);
}

/// Each document is checked and compiled on its own, so the work is spread over the cores;
/// the results are kept per document, so the output does not depend on which thread did what.
std::vector<DocumentWork> check_documents(const std::vector<Document>& documents,
                                          const RuntimeRegistry& registry,
                                          const RenderRequest& request,
                                          const CompileOptions& options,
                                          const CompanionNamespaces& companions) {
  std::vector<DocumentWork> work(documents.size());
  std::set<std::string> referenced = referenced_runtimes(documents);
  std::vector<InputSchemas> schemas(worker_count(documents.size()));
  parallel_for(documents.size(), [&](size_t i, size_t worker) {
    const Document& document = documents[i];
    // A kind of ours in a form we do not compile gets one message, not the schema's and the
    // compiler's guesses at what it might be.
    if (!check_api_kind(document, &work[i].semantic_findings)) return;
    InputCheck::check_schema(document, request.compile.dialect, &schemas[worker],
                             &work[i].schema_findings);
    check_input_names(document, &work[i].semantic_findings);
    check_kueue_topology(document, &work[i].semantic_findings);
    if (request.namespace_from_flag)
      check_namespace_flag(document, options.default_namespace, &work[i].semantic_findings);
    if (is_trainjob_document(document)) {
      work[i].objects = compile_trainjob(document, registry, options, &work[i].semantic_findings);
    } else if (is_optimization_job_document(document)) {
      work[i].objects =
          compile_sweep(document, registry, request, options, &schemas[worker], &work[i]);
    } else if (is_legacy_document(document) && options.render_target == RenderTarget::kJobSet) {
      refuse_legacy_jobset(document, &work[i].semantic_findings);
    } else if (is_legacy_document(document)) {
      work[i].objects = compile_legacy_job(document, options, &work[i].semantic_findings);
    } else if (request.check_runtimes && is_runtime_document(document)) {
      Dialect release = runtime_check_release(document, referenced, request.compile.dialect);
      check_runtime_document(document, release, &work[i].semantic_findings);
    }
    // With -n, a document of another namespace is already refused (check_namespace_flag).
    if (!request.namespace_from_flag)
      companions.check_uses(document, work[i].objects, &work[i].semantic_findings);
    if (!options.keep_objects) work[i].objects = {};
  });
  return work;
}

}  // namespace

void check_runtime_document(const Document& runtime, Dialect release, Diagnostics* diagnostics) {
  FieldReader reader(runtime, diagnostics);
  const TrainJob no_trainjob;  // nothing is compiled: the runtime's own rules only
  CompileState state(no_trainjob, reader, reader, dialect_info(release));
  read_runtime_template(&state);  // sets ml_policy even when the template has problems
  check_ml_policy(state, /*compiling=*/false);
}

RenderResult render_inputs(const RenderRequest& request, const FileSystem& fs,
                           const StdinReader& read_stdin, Diagnostics* diagnostics) {
  SourceTexts texts;
  std::vector<Document> documents =
      load_inputs(request.inputs, fs, read_stdin, diagnostics, &texts);
  // A file that does not parse stops nothing else: every problem is reported in one run.
  if (documents.empty()) {
    // Name the file when there is only one, so the message says where to look.
    std::string file = texts.size() == 1 ? texts.begin()->first : "";
    if (!diagnostics->has_errors())
      diagnostics->error(file, {}, "", "no objects found in the inputs");
    RenderResult result;
    result.texts = std::move(texts);
    return result;
  }
  return render_documents(std::move(documents), std::move(texts), request, fs, diagnostics);
}

bool has_runtime_document(const std::vector<Document>& documents) {
  return std::any_of(documents.begin(), documents.end(), is_runtime_document);
}

std::string runtime_ref_name(const Document& trainjob) {
  const Json* spec = &json_member(trainjob.value, "spec");
  if (is_optimization_job_document(trainjob))
    spec = &json_member(json_member(*spec, "trainJobTemplate"), "spec");
  const Json& ref = json_member(*spec, "runtimeRef");
  return string_member(ref, "name");
}

void add_search_layers(const RenderRequest& request, const FileSystem& fs,
                       const std::set<std::string>& referenced, RuntimeRegistry* registry,
                       Diagnostics* diagnostics) {
  if (!request.runtimes_dir.empty()) {
    add_directory_runtimes(request.runtimes_dir, fs, registry, diagnostics);
  }
  if (!request.cluster_runtimes.empty())
    registry->add_layer("the cluster", request.cluster_runtimes);
  add_embedded_runtimes(registry, diagnostics, &referenced);
}

std::vector<RenderedUnit> render_block(const std::vector<Document>& documents,
                                       const RuntimeRegistry& registry,
                                       const RenderRequest& request, const CompileOptions& options,
                                       const CompanionNamespaces& companions,
                                       Diagnostics* diagnostics) {
  std::vector<DocumentWork> work =
      check_documents(documents, registry, request, options, companions);
  InputCheck input_check(documents);
  Diagnostics semantic;
  std::vector<RenderedUnit> units;
  for (size_t i = 0; i < work.size(); ++i) {
    input_check.add_schema_findings(work[i].schema_findings);
    for (const Diagnostic& finding : work[i].semantic_findings.all())
      semantic.add(finding);
    const Document& document = documents[i];
    if (!check_object(document, diagnostics) || is_runtime_document(document)) continue;
    bool compiled = is_trainjob_document(document) || is_legacy_document(document) ||
                    is_optimization_job_document(document);
    RenderedUnit unit{&document, compiled, std::move(work[i].objects)};
    if (!unit.compiled && request.compile.keep_objects)
      unit.objects.push_back(companions.pinned_value(document));
    units.push_back(std::move(unit));
  }
  input_check.merge(semantic, diagnostics);
  return units;
}

RenderResult render_documents(std::vector<Document> documents, SourceTexts texts,
                              const RenderRequest& request, const FileSystem& fs,
                              Diagnostics* diagnostics) {
  RenderResult result;
  result.documents = std::move(documents);
  result.texts = std::move(texts);
  RuntimeRegistry registry;
  registry.add_layer("the inputs", result.documents, std::nullopt,
                     request.compile.default_namespace);
  add_search_layers(request, fs, referenced_runtimes(result.documents), &registry, diagnostics);
  CompanionNamespaces companions;
  for (const Document& document : result.documents)
    companions.note(document, request.compile);
  const std::string& fallback = request.compile.default_namespace;
  std::set<std::string> config_maps = companions.keys_of("ConfigMap", fallback);
  std::set<std::string> claims = companions.keys_of("PersistentVolumeClaim", fallback);
  CompileOptions options = request.compile;
  if (!request.config_map_from_files) options.config_maps = &config_maps;
  options.claims = &claims;
  result.units =
      render_block(result.documents, registry, request, options, companions, diagnostics);
  return result;
}

}  // namespace trainjob
