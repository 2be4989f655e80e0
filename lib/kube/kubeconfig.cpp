#include "kube/kubeconfig.h"

#include <algorithm>

#include "diag/diagnostic.h"
#include "kube/kube_error.h"
#include "load/yaml_loader.h"

namespace trainjob {
namespace {

void merge_entries(const Json& document, const char* list_key, const char* item_key,
                   const std::string& file, std::map<std::string, KubeconfigEntry>* into) {
  auto list = document.find(list_key);
  if (list == document.end() || list->is_null()) return;
  if (!list->is_array())
    throw KubeError("error loading config file \"" + file + "\": " + list_key +
                    ": expected a list");
  for (const Json& item : *list) {
    std::string name = string_member(item, "name");
    if (name.empty()) continue;
    if (into->count(name) != 0) continue;  // an earlier file defined it: it wins wholesale
    auto body = item.find(item_key);
    Json value = body != item.end() && body->is_object() ? *body : Json::object();
    (*into)[name] = KubeconfigEntry{value, directory_of(file), file};
  }
}

Json parse_file(const std::string& file, const std::string& text) {
  Diagnostics diagnostics;
  std::vector<Document> documents = load_documents(file, text, &diagnostics);
  if (diagnostics.has_errors()) {
    throw KubeError("error loading config file \"" + file +
                    "\": " + format_diagnostic(diagnostics.all().front()));
  }
  if (documents.empty()) return Json::object();
  if (!documents.front().value.is_object())
    throw KubeError("error loading config file \"" + file + "\": expected a mapping");
  return documents.front().value;
}

}  // namespace

std::vector<std::string> kubeconfig_paths(const std::string& explicit_path,
                                          const Environment& env) {
  if (!explicit_path.empty()) return {explicit_path};
  std::vector<std::string> paths;
  if (auto list = env.variable("KUBECONFIG"); list && !list->empty()) {
    size_t start = 0;
    while (start <= list->size()) {
      size_t end = list->find(':', start);
      if (end == std::string::npos) end = list->size();
      std::string path = list->substr(start, end - start);
      if (!path.empty() && std::find(paths.begin(), paths.end(), path) == paths.end())
        paths.push_back(path);
      start = end + 1;
    }
    return paths;
  }
  if (auto home = env.variable("HOME"); home && !home->empty())
    paths.push_back(*home + "/.kube/config");
  return paths;
}

void merge_kubeconfig_file(const std::string& file, const Json& document, Kubeconfig* config) {
  merge_entries(document, "clusters", "cluster", file, &config->clusters);
  merge_entries(document, "users", "user", file, &config->users);
  merge_entries(document, "contexts", "context", file, &config->contexts);
  if (config->current_context.empty())
    config->current_context = string_member(document, "current-context");
  config->files.push_back(file);
}

Kubeconfig load_kubeconfig(const std::string& explicit_path, const Environment& env) {
  Kubeconfig config;
  for (const std::string& path : kubeconfig_paths(explicit_path, env)) {
    std::optional<std::string> text = env.read_file(path);
    if (!text) {
      if (!explicit_path.empty())
        throw KubeError("stat " + path + ": no such file or directory (--kubeconfig)");
      continue;  // KUBECONFIG entries and ~/.kube/config may be missing
    }
    merge_kubeconfig_file(path, parse_file(path, *text), &config);
  }
  return config;
}

}  // namespace trainjob
