#include "model/runtime_registry.h"

#include <algorithm>
#include <utility>

#include "model/runtime_policy.h"
#include "model/vocabulary.h"

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

bool is_optimization_job_document(const Document& document) {
  return has_trainer_api_version(document) && document.kind() == kOptimizationJobKind;
}

void RuntimeRegistry::add_layer(const std::string& source, const std::vector<Document>& documents,
                                std::optional<DialectRange> shipped,
                                const std::string& default_namespace) {
  Layer layer{source, {}};
  for (const Document& document : documents) {
    if (!is_runtime_document(document)) continue;
    documents_.push_back(document);
    const Document* stored = &documents_.back();
    // A ClusterTrainingRuntime has no namespace, whatever its metadata says.
    std::string name_space = stored->kind() == kTrainingRuntime ? stored->name_space() : "";
    if (stored->kind() == kTrainingRuntime && name_space.empty()) name_space = default_namespace;
    Key key{stored->kind(), name_space, stored->name()};
    DialectRange releases;
    if (shipped) {
      releases = unserved(key, shipped->intersect(policy_releases(runtime_policy(*stored))));
    }
    layer.runtimes.emplace(std::move(key), Runtime{stored, source, releases});
  }
  layers_.push_back(std::move(layer));
}

DialectRange RuntimeRegistry::unserved(const Key& key, DialectRange releases) const {
  for (const Layer& layer : layers_) {
    auto it = layer.runtimes.find(key);
    if (it != layer.runtimes.end()) releases = releases.without(it->second.releases);
  }
  return releases;
}

const Runtime* RuntimeRegistry::find(const std::string& kind, const std::string& name,
                                     const std::string& name_space, Dialect dialect) const {
  Key key{kind, kind == kTrainingRuntime ? name_space : "", name};
  for (const Layer& layer : layers_) {
    auto it = layer.runtimes.find(key);
    if (it != layer.runtimes.end() && it->second.releases.contains(dialect)) return &it->second;
  }
  return nullptr;
}

const Runtime* RuntimeRegistry::find_any_release(const std::string& kind, const std::string& name,
                                                 const std::string& name_space) const {
  Key key{kind, kind == kTrainingRuntime ? name_space : "", name};
  for (const Layer& layer : layers_) {
    auto it = layer.runtimes.find(key);
    if (it != layer.runtimes.end() && !it->second.releases.empty()) return &it->second;
  }
  return nullptr;
}

std::string RuntimeRegistry::searched_places() const {
  std::string out;
  std::string last;
  for (const Layer& layer : layers_) {
    // The embedded runtimes are two layers (the v2.1 forms first), one place to a reader.
    if (layer.source == last) continue;
    if (!out.empty()) out += ", ";
    out += layer.source;
    last = layer.source;
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

void RuntimeRegistry::note_cluster_runtime_names(const std::vector<std::string>& names) {
  noted_names_.insert(noted_names_.end(), names.begin(), names.end());
}

std::vector<std::string> RuntimeRegistry::names(const std::string& kind,
                                                const std::string& name_space) const {
  std::vector<std::string> out;
  std::string wanted_namespace = kind == kTrainingRuntime ? name_space : "";
  for (const Layer& layer : layers_) {
    for (const auto& entry : layer.runtimes) {
      if (std::get<0>(entry.first) == kind && std::get<1>(entry.first) == wanted_namespace)
        out.push_back(std::get<2>(entry.first));
    }
  }
  if (kind == kClusterTrainingRuntime)
    out.insert(out.end(), noted_names_.begin(), noted_names_.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace trainjob
