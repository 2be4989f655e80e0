#include "render/policy/plugins.h"

#include "model/jobset_labels.h"

namespace trainjob {

const std::vector<const PolicyPlugin*>& policy_plugins() {
  static const std::vector<const PolicyPlugin*> plugins = {&kTorchPlugin, &kMpiPlugin, &kJaxPlugin,
                                                           &kXgboostPlugin, &kFluxPlugin};
  return plugins;
}

const PolicyPlugin* find_policy_plugin(const Field& ml_policy) {
  if (!ml_policy) return nullptr;
  for (const PolicyPlugin* plugin : policy_plugins()) {
    if (ml_policy[plugin->name]) return plugin;
  }
  return nullptr;
}

Json completion_index_env(const std::string& name) {
  return Json{{"name", name},
              {"valueFrom",
               {{"fieldRef",
                 {{"fieldPath",
                   std::string("metadata.annotations['") + kCompletionIndexAnnotation + "']"}}}}}};
}

}  // namespace trainjob
