#include "model/runtime_registry.h"

#include <utility>

namespace trainjob {
namespace {

bool has_trainer_api_version(const Document& document) {
  std::string_view api_version = document.api_version();
  std::string_view group = kTrainerApiGroup;
  return api_version.size() > group.size() && api_version.substr(0, group.size()) == group &&
         api_version[group.size()] == '/';
}

}  // namespace

bool is_runtime_document(const Document& document) {
  const std::string& kind = document.kind();
  return has_trainer_api_version(document) &&
         (kind == kClusterTrainingRuntime || kind == kTrainingRuntime);
}

bool is_trainjob_document(const Document& document) {
  return has_trainer_api_version(document) && document.kind() == kTrainJob;
}

void RuntimeRegistry::add_layer(const std::string& source, const std::vector<Document>& documents) {
  Layer layer{source, {}};
  for (const Document& document : documents) {
    if (!is_runtime_document(document)) continue;
    documents_.push_back(document);
    const Document* stored = &documents_.back();
    // A ClusterTrainingRuntime has no namespace, whatever its metadata says.
    std::string name_space = stored->kind() == kTrainingRuntime ? stored->name_space() : "";
    Key key{stored->kind(), name_space, stored->name()};
    layer.runtimes.emplace(std::move(key), Runtime{stored, source});
  }
  layers_.push_back(std::move(layer));
}

const Runtime* RuntimeRegistry::find(const std::string& kind, const std::string& name,
                                     const std::string& name_space) const {
  Key key{kind, kind == kTrainingRuntime ? name_space : "", name};
  for (const Layer& layer : layers_) {
    auto it = layer.runtimes.find(key);
    if (it != layer.runtimes.end()) return &it->second;
  }
  return nullptr;
}

std::string RuntimeRegistry::searched_places() const {
  std::string out;
  for (const Layer& layer : layers_) {
    if (!out.empty()) out += ", ";
    out += layer.source;
  }
  return out;
}

std::vector<Runtime> RuntimeRegistry::all() const {
  std::vector<Runtime> out;
  for (const Layer& layer : layers_) {
    for (const auto& entry : layer.runtimes)
      out.push_back(entry.second);
  }
  return out;
}

}  // namespace trainjob
