// The options of `kubectl trainjob krm`, read from the function's configuration: the
// `functionConfig` of a KRM ResourceList, or the plugin configuration file kustomize names.
#ifndef TRAINJOB_KRM_KRM_CONFIG_H_
#define TRAINJOB_KRM_KRM_CONFIG_H_

#include <string>
#include <string_view>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/vocabulary.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

/// Reads the configuration at `path` of `document` (empty: the whole document) into
/// `request`. The options are top-level fields (`namespace`, `trainerVersion`, `target`,
/// `generateSecrets`) of a configuration of any kind, or the `data` keys of a `v1`
/// ConfigMap (strings: `generateSecrets: "true"`). A null or empty configuration leaves
/// the defaults. Unknown fields and bad values are errors located at their field.
void read_krm_config(const Document& document, std::string_view path, RenderRequest* request,
                     Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_KRM_KRM_CONFIG_H_
