#include "model/embedded_runtimes.h"

#include <string_view>
#include <vector>

#include "embed/embedded.h"
#include "load/yaml_loader.h"

namespace trainjob {
namespace {

/// The folder of runtimes/ that holds the Trainer v2.1 forms.
constexpr std::string_view kV21RuntimesDir = "v2.1/";

/// `runtimes/v2.1/torch-distributed.yaml` -> torch-distributed: each embedded file holds the
/// runtime of its name (tests/e2e/render/embedded_runtimes_test.sh checks it).
std::string embedded_runtime_name(std::string_view path) {
  path = path.substr(path.rfind('/') + 1);
  return std::string(path.substr(0, path.rfind(".yaml")));
}

/// Where a message about an embedded runtime points: no file a person can open, so the
/// command that prints the runtime (its field paths locate the finding in that output).
std::string embedded_runtime_location(std::string_view path, bool is_v2_1_form) {
  std::string name = embedded_runtime_name(path);
  return "built-in runtime " + name + " (`kubectl trainjob runtimes get " + name +
         (is_v2_1_form ? " --trainer-version 2.1" : "") + "`)";
}

}  // namespace

void add_embedded_runtimes(RuntimeRegistry* registry, Diagnostics* diagnostics,
                           const std::set<std::string>* only) {
  // runtimes/v2.1/ holds the forms Trainer v2.0-v2.1 shipped where v2.3 changed them; they
  // come first, so TrainJobs of those releases get them and the rest get runtimes/*.yaml.
  std::vector<Document> v2_1_forms;
  std::vector<Document> current;
  std::vector<std::string> names;
  for (const EmbeddedFile& file : embedded_runtimes()) {
    names.push_back(embedded_runtime_name(file.path));
    bool is_v2_1_form = file.path.substr(0, kV21RuntimesDir.size()) == kV21RuntimesDir;
    if (only != nullptr && only->count(embedded_runtime_name(file.path)) == 0) continue;
    std::string name = embedded_runtime_location(file.path, is_v2_1_form);
    for (Document& document : load_documents(name, file.contents, diagnostics)) {
      // A line and column of a file nobody can open would only mislead.
      document.source_map = nullptr;
      (is_v2_1_form ? v2_1_forms : current).push_back(std::move(document));
    }
  }
  registry->add_layer("the embedded runtimes", v2_1_forms,
                      DialectRange{Dialect::kV2_0, Dialect::kV2_1});
  registry->add_layer("the embedded runtimes", current, DialectRange{});
  // "Did you mean" may name a runtime this render did not parse.
  registry->note_cluster_runtime_names(names);
}

}  // namespace trainjob
