#include "render/policy/plugins.h"

#include "model/jobset_labels.h"

namespace trainjob {
namespace {

const PolicyPlugin* const kPlugins[] = {&kTorchPlugin, &kMpiPlugin, &kJaxPlugin, &kXgboostPlugin,
                                        &kFluxPlugin};

}  // namespace

const PolicyPlugin* find_policy_plugin(const Field& ml_policy) {
  if (!ml_policy) return nullptr;
  for (const PolicyPlugin* plugin : kPlugins) {
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
