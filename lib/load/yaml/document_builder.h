// One document's Json, and where each of its nodes is written, built from YAML parser
// events: libyaml's, or BlockEventReader's identical ones.
#ifndef TRAINJOB_LOAD_YAML_DOCUMENT_BUILDER_H_
#define TRAINJOB_LOAD_YAML_DOCUMENT_BUILDER_H_

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>
#include <yaml.h>

#include "diag/diagnostic.h"
#include "load/json.h"
#include "load/yaml/mark_source_map.h"

namespace trainjob {

/// A problem that stops loading: where, in which field, and what.
struct LoadError : std::runtime_error {
  LoadError(SourcePos at, std::string path, const std::string& message)
      : std::runtime_error(message), pos(at), field(std::move(path)) {}
  SourcePos pos;
  std::string field;
};

/// libyaml counts lines and columns from 0, messages from 1.
inline SourcePos pos_from_mark(const yaml_mark_t& mark) {
  return {static_cast<int>(mark.line) + 1, static_cast<int>(mark.column) + 1};
}

/// What anchors and aliases may copy into one document. Each alias copies its anchor's
/// value (and each anchor is copied once where it is defined), so a few lines can expand
/// into billions of nodes ("billion laughs"). The caps are absolute, not relative to the
/// input's size, so padding a file does not buy a bigger expansion; real manifests copy a
/// few hundred nodes this way.
inline constexpr size_t kMaxCopiedNodes = 100000;
inline constexpr size_t kMaxCopiedBytes = 64 << 20;  ///< of keys and strings

/// Builds one document from the events between DOCUMENT-START and DOCUMENT-END.
class DocumentBuilder {
 public:
  DocumentBuilder() = default;

  /// Consumes events up to the end of the document; returns the root.
  template <class Events>
  Json build(Events* events) {
    for (;;) {
      const yaml_event_t& event = events->next();
      switch (event.type) {
        case YAML_DOCUMENT_END_EVENT:
          return std::move(root_);
        case YAML_MAPPING_START_EVENT:
          start_collection(event, Json::object(), event.data.mapping_start.anchor);
          break;
        case YAML_SEQUENCE_START_EVENT:
          start_collection(event, Json::array(), event.data.sequence_start.anchor);
          break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
          end_collection(event);
          break;
        case YAML_SCALAR_EVENT:
          scalar(event);
          break;
        case YAML_ALIAS_EVENT:
          alias(event);
          break;
        default:
          break;
      }
    }
  }

  std::vector<NodeMark> take_marks() { return std::move(marks_); }

 private:
  /// A mapping or sequence being built.
  struct Frame {
    Json value;
    std::string anchor;
    size_t first_mark = 0;  ///< its own entry in the marks
    std::string key;        ///< mappings: the key whose value comes next
    bool has_key = false;
    SourcePos key_pos;
    std::unordered_set<std::string> keys;  ///< mappings: for the duplicate check
    bool merging = false;                  ///< the pending key is the YAML merge key `<<`
    /// Values of `<<` (a mapping or a list of mappings) with the marks of their nodes,
    /// merged in when the mapping ends, under its own keys.
    std::vector<std::pair<Json, std::vector<NodeMark>>> merges;
  };

  struct Anchor {
    Json value;
    size_t first_mark = 0;
    size_t end_mark = 0;
    size_t bytes = 0;  ///< of its keys and strings
  };

  bool expects_key() const;
  [[noreturn]] void fail(const yaml_mark_t& mark, const std::string& message) const;

  /// Records where a new node starts; a mapping's value takes the pending key's position.
  size_t add_mark(const yaml_event_t& event);
  /// Keeps `value` (whose marks are [first_mark, end_mark)) as the anchor `name`.
  void define_anchor(const yaml_event_t& event, const std::string& name, const Json& value,
                     size_t first_mark, size_t end_mark);
  /// Counts a copy of `nodes` nodes and `bytes` bytes against the caps above.
  void charge_copy(const yaml_event_t& event, const std::string& where, size_t nodes, size_t bytes);

  void start_collection(const yaml_event_t& event, Json value, const unsigned char* anchor);
  void end_collection(const yaml_event_t& event);

  /// YAML's merge key, as Kubernetes reads it: the keys of the merged mappings that the
  /// mapping does not set itself are added after its own, earlier mappings first.
  void apply_merges(const yaml_event_t& event);

  /// Adds the entries of `source` (whose own mark is marks[first]) that `frame` lacks.
  void merge_mapping(const Json& source, const std::vector<NodeMark>& marks, size_t first,
                     Frame* frame);

  void scalar(const yaml_event_t& event);
  static Json resolve(const yaml_event_t& event, std::string text);

  /// ordered_json finds keys by linear search, fine for the few keys of most mappings; a
  /// hash set takes over for large ones (a big ConfigMap) so loading stays linear.
  static bool is_duplicate(Frame* frame, const std::string& key);

  void take_key(const yaml_event_t& event, std::string key);
  /// The line `key` was first set on in `frame`'s mapping, for a duplicate's message.
  int earlier_key_line(const Frame& frame, const std::string& key) const;
  void alias(const yaml_event_t& event);

  /// Hands a finished node (whose marks start at `first_mark`) to its parent.
  void deliver(Json value, size_t first_mark);

  size_t copied_nodes_ = 0;
  size_t copied_bytes_ = 0;
  Json root_;
  std::vector<Frame> stack_;
  std::vector<NodeMark> marks_;
  std::unordered_map<std::string, Anchor> anchors_;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_DOCUMENT_BUILDER_H_
