// Files compiled into the binary from runtimes/, schemas/ and templates/init/.
#ifndef TRAINJOB_EMBED_EMBEDDED_H_
#define TRAINJOB_EMBED_EMBEDDED_H_

#include <string_view>
#include <vector>

namespace trainjob {

struct EmbeddedFile {
  std::string_view path;  ///< relative to its source folder, e.g. `torch-distributed.yaml`
  std::string_view contents;
};

/// The ClusterTrainingRuntimes of `runtimes/`, sorted by path.
const std::vector<EmbeddedFile>& embedded_runtimes();
/// The input schemas of `schemas/trainer/` (`v2.1/trainjob.json`, ...), sorted by path.
const std::vector<EmbeddedFile>& embedded_schemas();
/// What `init` starts from: `templates/init/` (one TrainJob per mode, the default script).
const std::vector<EmbeddedFile>& embedded_templates();

}  // namespace trainjob

#endif  // TRAINJOB_EMBED_EMBEDDED_H_
