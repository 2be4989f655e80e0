// Files compiled into the binary from runtimes/ (and later templates/, schemas/).
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

}  // namespace trainjob

#endif  // TRAINJOB_EMBED_EMBEDDED_H_
