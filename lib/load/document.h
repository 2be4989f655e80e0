// A parsed input document: its JSON value plus where each field came from.
#ifndef TRAINJOB_LOAD_DOCUMENT_H_
#define TRAINJOB_LOAD_DOCUMENT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "load/json.h"

namespace trainjob {

/// Where the fields of a document are written. Looked up only when a message needs a
/// position, so loading does not pay for positions nobody asks for.
class SourceMap {
 public:
  virtual ~SourceMap() = default;
  /// The value at `path` of the document `root`, or its nearest ancestor that is written.
  virtual SourcePos value_pos(const Json& root, std::string_view path) const = 0;
  /// The key of the map entry at `path`; unknown (0:0) when there is none.
  virtual SourcePos key_pos(const Json& root, std::string_view path) const = 0;
};

struct Document {
  std::string file;  ///< as the user named it; `STDIN` for `-`
  int index = 0;     ///< position in the file's document stream, from 0
  Json value;
  /// Shared: copies of a document (the runtime registry keeps some) share their positions.
  std::shared_ptr<const SourceMap> source_map;

  /// Where `path` is written, or its nearest written ancestor.
  SourcePos pos_of(std::string_view path) const;
  /// Where the key of `path` is written (falls back to pos_of).
  SourcePos key_pos_of(std::string_view path) const;
  /// Where a message about `path` should point: its value, or its key when the value is a
  /// block that starts on a later line (a finding about `mlPolicy` points at `mlPolicy:`,
  /// not at the first field inside it).
  SourcePos message_pos_of(std::string_view path) const;
  // The strings in `value`, or empty ones: valid while the document is.
  const std::string& kind() const;
  const std::string& api_version() const;
  const std::string& name() const;
  const std::string& name_space() const;

 private:
  const Json& metadata() const;
};

/// What one input document became: a TrainJob's objects, or the document itself.
struct RenderedUnit {
  const Document* source = nullptr;
  bool compiled = false;  ///< a TrainJob (objects sorted) rather than a pass-through
  std::vector<Json> objects;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_DOCUMENT_H_
