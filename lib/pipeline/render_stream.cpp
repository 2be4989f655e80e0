#include "pipeline/render_stream.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "load/input_stream.h"
#include "model/trainjob.h"

namespace trainjob {
namespace {

/// What the first reading keeps: the documents that other documents refer to, each with
/// its file, since a file that fails to load contributes nothing.
struct CrossReferences {
  std::vector<std::pair<std::string, Document>> runtimes;
  CompanionNamespaces companions;    ///< the jobs' namespaces, the ConfigMaps and claims
  std::set<std::string> referenced;  ///< runtimeRef names
  std::vector<std::string> files_with_documents;

  void take(const std::string& file, std::vector<Document> documents,
            const CompileOptions& options) {
    if (!documents.empty()) files_with_documents.push_back(file);
    for (Document& document : documents) {
      if (is_trainjob_document(document) || is_optimization_job_document(document))
        referenced.insert(runtime_ref_name(document));
      companions.note(document, options);
      if (is_runtime_document(document)) runtimes.emplace_back(file, std::move(document));
    }
  }
};

/// True when some file that loaded holds a document.
bool any_documents(const CrossReferences& found, const std::set<std::string>& failed) {
  for (const std::string& file : found.files_with_documents) {
    if (failed.count(file) == 0) return true;
  }
  return false;
}

}  // namespace

void render_stream(const RenderRequest& request, const FileSystem& fs, const UnitHandler& on_unit,
                   Diagnostics* diagnostics, std::FILE* stdin_file) {
  InputStream inputs(request.inputs, fs, stdin_file);
  CrossReferences found;
  inputs.read(
      [&](const std::string& file, std::vector<Document> documents) {
        found.take(file, std::move(documents), request.compile);
      },
      diagnostics);
  const std::set<std::string>& failed = inputs.failed_files();
  if (!any_documents(found, failed)) {
    // Name the file when there is only one, so the message says where to look.
    const std::vector<std::string>& read = inputs.files_read();
    std::string file = read.size() == 1 ? read.front() : "";
    if (!diagnostics->has_errors())
      diagnostics->error(file, {}, "", "no objects found in the inputs");
    return;
  }
  std::vector<Document> runtimes;
  for (auto& [file, document] : found.runtimes) {
    if (failed.count(file) == 0) runtimes.push_back(std::move(document));
  }
  found.runtimes.clear();
  RuntimeRegistry registry;
  registry.add_layer("the inputs", runtimes, std::nullopt, request.compile.default_namespace);
  runtimes.clear();
  add_search_layers(request, fs, found.referenced, &registry, diagnostics);
  const std::string& fallback = request.compile.default_namespace;
  std::set<std::string> config_maps = found.companions.keys_of("ConfigMap", fallback, failed);
  std::set<std::string> claims =
      found.companions.keys_of("PersistentVolumeClaim", fallback, failed);
  CompileOptions options = request.compile;
  if (!request.config_map_from_files) options.config_maps = &config_maps;
  options.claims = &claims;
  inputs.read(
      [&](const std::string&, const std::vector<Document>& documents) {
        std::vector<RenderedUnit> units =
            render_block(documents, registry, request, options, found.companions, diagnostics);
        for (const RenderedUnit& unit : units) {
          if (!diagnostics->has_errors()) on_unit(unit);
        }
      },
      diagnostics);
}

}  // namespace trainjob
