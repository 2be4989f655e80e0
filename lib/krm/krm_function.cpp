#include "krm/krm_function.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "krm/krm_annotations.h"
#include "krm/krm_config.h"
#include "krm/krm_results.h"
#include "krm/resource_list.h"
#include "load/yaml_loader.h"
#include "model/runtime_registry.h"
#include "output/render_output.h"
#include "pipeline/render_pipeline.h"
#include "render/compile.h"

namespace trainjob {
namespace {

/// One resource of the output, with where it goes.
struct Placed {
  Json object;
  ItemSource source;    ///< of the input item it comes from
  size_t item;          ///< the position of that item in the input list
  size_t part;          ///< among the objects that item became
  bool rendered;        ///< an object of a render rather than the input item itself
  bool edited = false;  ///< the input item with its annotations changed
};

/// The unit each document became, by the document's position (null: a runtime, consumed).
std::vector<const RenderedUnit*> units_by_document(const RenderResult& result) {
  std::vector<const RenderedUnit*> units(result.documents.size(), nullptr);
  for (const RenderedUnit& unit : result.units)
    units[static_cast<size_t>(unit.source - result.documents.data())] = &unit;
  return units;
}

/// The output resources in input order: each compiled item replaced by its objects
/// (without the annotations that described the item), others as they came.
std::vector<Placed> place_outputs(const RenderResult& result) {
  std::vector<const RenderedUnit*> units = units_by_document(result);
  std::vector<Placed> placed;
  for (size_t i = 0; i < result.documents.size(); ++i) {
    const RenderedUnit* unit = units[i];
    if (unit == nullptr) continue;
    ItemSource source = item_source(result.documents[i].value);
    for (size_t part = 0; part < unit->objects.size(); ++part) {
      size_t item = static_cast<size_t>(result.documents[i].index);
      Placed out{unit->objects[part], source, item, part, unit->compiled};
      if (unit->compiled) strip_tool_annotations(&out.object);
      placed.push_back(std::move(out));
    }
  }
  return placed;
}

/// Gives the rendered objects their TrainJob's file, and every resource of a file that
/// changed its index there anew: the objects take the place of the document they came
/// from, so the file reads in the order it was written.
void assign_files(const RenderResult& result, std::vector<Placed>* placed) {
  std::set<std::string> changed;  // files that lost a runtime or had a job replaced
  for (const Document& document : result.documents) {
    if (is_runtime_document(document)) changed.insert(item_source(document.value).path);
  }
  for (const Placed& out : *placed) {
    if (out.rendered) changed.insert(out.source.path);
  }
  changed.erase("");  // no file named: the tool chooses one
  std::map<std::string, std::vector<Placed*>> by_file;
  for (Placed& out : *placed) {
    if (changed.count(out.source.path) != 0) by_file[out.source.path].push_back(&out);
  }
  for (auto& [path, entries] : by_file) {
    std::stable_sort(entries.begin(), entries.end(), [](const Placed* a, const Placed* b) {
      long a_index = a->source.index >= 0 ? a->source.index : static_cast<long>(a->item);
      long b_index = b->source.index >= 0 ? b->source.index : static_cast<long>(b->item);
      return std::tie(a_index, a->part) < std::tie(b_index, b->part);
    });
    for (size_t n = 0; n < entries.size(); ++n) {
      Placed* entry = entries[n];
      entry->edited = !entry->rendered && entry->source.index != static_cast<long>(n);
      set_item_source(&entry->object, {path, static_cast<long>(n)});
      if (entry->rendered) sort_keys(&entry->object);  // where kubectl prints them
    }
  }
}

/// The KRM form: a ResourceList in (`text`, read as `list`), a ResourceList out.
std::string run_resource_list(const Document& list, std::string_view text, const FileSystem& fs,
                              Diagnostics* diagnostics) {
  RenderRequest request;
  read_krm_config(list, "functionConfig", &request, diagnostics);
  std::vector<Document> documents = resource_list_items(list, diagnostics);
  ResultSubjects subjects;
  const Json& config = json_member(list.value, "functionConfig");
  if (config.is_object()) subjects[list.file] = {&config, "functionConfig"};
  const Json& items = json_member(list.value, "items");
  for (const Document& document : documents)
    subjects.emplace(document.file, ResultSubject{&items[document.index], ""});
  RenderResult result = render_documents(std::move(documents), {}, request, fs, diagnostics);
  diagnostics->sort();
  bool json = looks_like_json(text);
  std::vector<std::string_view> texts =
      json ? std::vector<std::string_view>{} : item_texts(list, text);
  auto text_of = [&texts](size_t item) -> std::string_view {
    return item < texts.size() ? texts[item] : "";
  };
  std::vector<Placed> placed;
  std::vector<OutputItem> out;
  if (diagnostics->has_errors()) {
    // Nothing half-done: the resources go back as they came, with the findings.
    for (size_t i = 0; items.is_array() && i < items.size(); ++i)
      out.push_back({&items[i], text_of(i)});
  } else {
    placed = place_outputs(result);
    assign_files(result, &placed);
    for (const Placed& entry : placed) {
      bool as_read = !entry.rendered && !entry.edited;
      out.push_back({&entry.object, as_read ? text_of(entry.item) : ""});
    }
  }
  return format_resource_list(list.api_version(), out, krm_results(diagnostics->all(), subjects),
                              json);
}

/// How the temporary files kustomize hands its exec plugins their configuration in begin.
constexpr const char* kKustomizeConfigFilePrefix = "/kust-plugin-config-";

/// The options of the exec plugin form, from the configuration file kustomize wrote.
void read_plugin_config(const std::string& path, const FileSystem& fs, RenderRequest* request,
                        Diagnostics* diagnostics) {
  std::string text;
  std::string error;
  if (!fs.read_file(path, &text, &error)) {
    diagnostics->error(path, {}, "", "cannot read the plugin configuration: " + error);
    return;
  }
  std::vector<Document> documents = load_documents(path, text, diagnostics);
  if (documents.size() > 1)
    diagnostics->error(
        path, documents[1].pos_of(""), "",
        "expected one configuration document, found " + std::to_string(documents.size()));
  if (documents.empty()) return;
  Document& config = documents[0];
  if (path.find(kKustomizeConfigFilePrefix) != std::string::npos) {
    // kustomize's copy of the configuration, written anew and removed at once: its name and
    // lines lead nowhere, the configuration's kind and name do.
    config.file = config.kind() + "/" + config.name();
    config.source_map = nullptr;
  }
  read_krm_config(config, "", request, diagnostics);
}

/// The exec plugin form: a YAML stream in, a YAML stream out.
std::string run_exec_plugin(std::vector<Document> documents, const std::string& config_path,
                            const FileSystem& fs, Diagnostics* diagnostics) {
  RenderRequest request;
  if (!config_path.empty()) read_plugin_config(config_path, fs, &request, diagnostics);
  RenderResult result = render_documents(std::move(documents), {}, request, fs, diagnostics);
  diagnostics->sort();
  if (diagnostics->has_errors()) return "";
  std::vector<Placed> placed = place_outputs(result);
  std::vector<const Json*> objects;
  objects.reserve(placed.size());
  for (const Placed& entry : placed)
    objects.push_back(&entry.object);
  return format_objects(objects, OutputFormat::kYaml);
}

}  // namespace

std::string run_krm_function(const KrmRequest& request, const FileSystem& fs,
                             Diagnostics* diagnostics) {
  std::vector<Document> documents = load_documents("STDIN", request.input, diagnostics);
  if (diagnostics->has_errors()) {
    diagnostics->sort();
    return "";  // not even the form is known: nothing to answer in
  }
  if (request.config_path.empty() && documents.size() == 1 && is_resource_list(documents[0]))
    return run_resource_list(documents[0], request.input, fs, diagnostics);
  return run_exec_plugin(std::move(documents), request.config_path, fs, diagnostics);
}

}  // namespace trainjob
