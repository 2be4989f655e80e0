// libFuzzer target: any bytes through load -> compile -> YAML output. Every outcome must
// be a value (documents, diagnostics); a crash, a leak or a hang is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "embed/embedded.h"
#include "load/yaml_loader.h"
#include "model/runtime_registry.h"
#include "output/render_output.h"
#include "render/compile.h"
#include "schema/schema_pass.h"

namespace {

/// The embedded runtimes, parsed once: the v2.1 forms (runtimes/v2.1/) and the rest. Each
/// input gets a fresh registry over them, layered as render layers them.
struct EmbeddedDocuments {
  std::vector<trainjob::Document> legacy;
  std::vector<trainjob::Document> current;
};

const EmbeddedDocuments& embedded_documents() {
  static const EmbeddedDocuments documents = [] {
    EmbeddedDocuments out;
    trainjob::Diagnostics diagnostics;
    for (const trainjob::EmbeddedFile& file : trainjob::embedded_runtimes()) {
      bool legacy = file.path.substr(0, 5) == "v2.1/";
      for (auto& document :
           trainjob::load_documents(std::string(file.path), file.contents, &diagnostics)) {
        (legacy ? out.legacy : out.current).push_back(std::move(document));
      }
    }
    return out;
  }();
  return documents;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  trainjob::Diagnostics diagnostics;
  std::vector<trainjob::Document> documents =
      trainjob::load_documents("fuzz.yaml", text, &diagnostics);
  // Runtimes in the input are used too, as render does.
  trainjob::RuntimeRegistry registry;
  registry.add_layer("the inputs", documents);
  registry.add_layer("the embedded runtimes", embedded_documents().legacy,
                     trainjob::DialectRange{trainjob::Dialect::kV2_0, trainjob::Dialect::kV2_1});
  registry.add_layer("the embedded runtimes", embedded_documents().current,
                     trainjob::DialectRange{});
  // The schema pass, as render and validate run it.
  static trainjob::InputSchemas schemas;
  for (const trainjob::Document& document : documents) {
    trainjob::InputCheck::check_schema(document, std::nullopt, &schemas, &diagnostics);
  }
  std::string out;
  for (const trainjob::Document& document : documents) {
    for (const trainjob::Diagnostic& d : diagnostics.all())
      out += trainjob::format_diagnostic(d);
    if (!trainjob::is_trainjob_document(document)) continue;
    std::vector<trainjob::Json> objects =
        trainjob::compile_trainjob(document, registry, {}, &diagnostics);
    std::vector<const trainjob::Json*> pointers;
    for (const trainjob::Json& object : objects)
      pointers.push_back(&object);
    out += trainjob::format_objects(pointers, trainjob::OutputFormat::kYaml);
    out += trainjob::format_objects(pointers, trainjob::OutputFormat::kJson);
  }
  diagnostics.sort();
  return 0;
}
