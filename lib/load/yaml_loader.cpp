// YAML streams -> Json documents, from libyaml's parser events, or from BlockEventReader's
// identical ones where the text is in its subset: the Json is built directly from the
// events, with an explicit stack (no recursion, so no depth limit of the parser's own),
// and the position of every node is recorded on the way.
#include "load/yaml_loader.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>
#include <yaml.h>

#include "load/block_events.h"
#include "load/field_path.h"
#include "load/input_checks.h"
#include "load/mark_source_map.h"
#include "load/stream_split.h"
#include "util/parallel.h"

namespace trainjob {
namespace {

/// Deeper input is refused: nothing real nests this far, and later stages recurse.
constexpr size_t kMaxDepth = 256;
/// Aliases can expand a small file enormously ("billion laughs"); stop well before that.
constexpr size_t kMaxNodesPerByte = 64;

SourcePos pos_from_mark(const yaml_mark_t& mark) {
  return {static_cast<int>(mark.line) + 1, static_cast<int>(mark.column) + 1};
}

/// Field of the LoadErrors libyaml's parser raises: their position is already absolute.
const char* const kParserError = "\x01parser";

struct LoadError : std::runtime_error {
  LoadError(SourcePos at, std::string path, const std::string& message)
      : std::runtime_error(message), pos(at), field(std::move(path)) {}
  SourcePos pos;
  std::string field;
};

/// libyaml's parser and event, released however the parse ends.
class EventSource {
 public:
  /// `first_line` is the line of the whole input that `text` starts on (from 0).
  EventSource(std::string_view text, int first_line) : text_(text), first_line_(first_line) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
  }
  ~EventSource() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  EventSource(const EventSource&) = delete;
  EventSource& operator=(const EventSource&) = delete;

  const yaml_event_t& next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = yaml_parser_parse(&parser_, &event_) != 0;
    if (!has_event_) throw_parser_error();
    return event_;
  }

 private:
  [[noreturn]] void throw_parser_error() const {
    const yaml_mark_t& at = parser_.problem_mark;
    // A problem found only at the end of the input (a quoted string never closed) is
    // shown where the construct it is in starts.
    bool at_end = at.index >= text_.size() && parser_.context != nullptr;
    std::string message = "invalid YAML: ";
    if (at.index < text_.size() && text_[at.index] == '\t') {
      message += "a tab character; YAML indents with spaces only";
    } else if (at_end) {
      message += std::string("the file ends ") + parser_.context + " that starts here";
    } else {
      message += parser_.problem != nullptr ? parser_.problem : "cannot be read";
      if (parser_.context != nullptr) {
        SourcePos start = pos_from_mark(parser_.context_mark);
        message += std::string(" ") + parser_.context + " that starts at " +
                   std::to_string(start.line + first_line_) + ":" + std::to_string(start.column);
      }
    }
    SourcePos where = pos_from_mark(at_end ? parser_.context_mark : at);
    where.line += first_line_;
    throw LoadError(where, kParserError, message);
  }

  std::string_view text_;
  int first_line_;
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
};

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
};

std::string event_anchor(const unsigned char* anchor) {
  return anchor != nullptr ? reinterpret_cast<const char*>(anchor) : std::string();
}

/// Builds one document from the events between DOCUMENT-START and DOCUMENT-END.
class DocumentBuilder {
 public:
  explicit DocumentBuilder(size_t max_nodes) : max_nodes_(max_nodes) {}

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
  bool expects_key() const {
    return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key;
  }

  [[noreturn]] void fail(const yaml_mark_t& mark, const std::string& message) const {
    std::string path;
    for (const Frame& frame : stack_) {
      if (frame.value.is_object()) {
        if (frame.has_key) path = field_child(path, frame.key);
      } else {
        path = field_index(path, frame.value.size());
      }
    }
    throw LoadError(pos_from_mark(mark), path, message);
  }

  /// Records where a new node starts; a mapping's value takes the pending key's position.
  size_t add_mark(const yaml_event_t& event) {
    if (marks_.size() >= max_nodes_) fail(event.start_mark, "too many nodes (alias expansion?)");
    SourcePos key = !stack_.empty() && stack_.back().has_key ? stack_.back().key_pos : SourcePos{};
    marks_.push_back({pos_from_mark(event.start_mark), key});
    return marks_.size() - 1;
  }

  void start_collection(const yaml_event_t& event, Json value, const unsigned char* anchor) {
    if (expects_key()) fail(event.start_mark, "expected a plain key, found a collection");
    if (stack_.size() >= kMaxDepth) {
      // The path would be hundreds of segments long; the position says enough.
      throw LoadError(
          pos_from_mark(event.start_mark), "",
          "invalid YAML: nested more than " + std::to_string(kMaxDepth) + " levels deep");
    }
    Frame frame;
    frame.first_mark = add_mark(event);
    frame.value = std::move(value);
    // Most mappings in manifests have a handful of keys: room for a few up front saves
    // the reallocations of growing from one.
    constexpr size_t kInitialEntries = 4;
    if (frame.value.is_object()) {
      static_cast<Json::object_t::Container&>(frame.value.get_ref<Json::object_t&>())
          .reserve(kInitialEntries);
    }
    frame.anchor = event_anchor(anchor);
    stack_.push_back(std::move(frame));
  }

  void end_collection(const yaml_event_t& event) {
    if (!stack_.back().merges.empty()) apply_merges(event);
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    if (!frame.anchor.empty()) {
      anchors_[frame.anchor] = {frame.value, frame.first_mark, marks_.size()};
    }
    deliver(std::move(frame.value), frame.first_mark);
  }

  /// YAML's merge key, as Kubernetes reads it: the keys of the merged mappings that the
  /// mapping does not set itself are added after its own, earlier mappings first.
  void apply_merges(const yaml_event_t& event) {
    Frame& frame = stack_.back();
    for (const auto& [value, marks] : frame.merges) {
      if (value.is_object()) {
        merge_mapping(value, marks, 0, &frame);
        continue;
      }
      if (!value.is_array()) fail(event.start_mark, "<< expects a mapping or a list of mappings");
      size_t offset = 1;  // past the list's own mark
      for (const Json& item : value) {
        if (!item.is_object()) fail(event.start_mark, "<< expects a mapping or a list of mappings");
        merge_mapping(item, marks, offset, &frame);
        offset += node_count(item);
      }
    }
    frame.merges.clear();
  }

  /// Adds the entries of `source` (whose own mark is marks[first]) that `frame` lacks.
  void merge_mapping(const Json& source, const std::vector<NodeMark>& marks, size_t first,
                     Frame* frame) {
    auto& entries =
        static_cast<Json::object_t::Container&>(frame->value.get_ref<Json::object_t&>());
    size_t next = first + 1;
    for (const auto& entry : source.items()) {
      size_t size = node_count(entry.value());
      if (!frame->value.contains(entry.key())) {
        entries.emplace_back(entry.key(), entry.value());
        marks_.insert(
            marks_.end(), marks.begin() + static_cast<std::ptrdiff_t>(next),
            marks.begin() + static_cast<std::ptrdiff_t>(std::min(next + size, marks.size())));
      }
      next += size;
    }
  }

  void scalar(const yaml_event_t& event) {
    const auto& data = event.data.scalar;
    std::string text(reinterpret_cast<const char*>(data.value), data.length);
    if (expects_key()) {
      take_key(event, std::move(text));
      return;
    }
    size_t mark = add_mark(event);
    Json value = resolve(event, std::move(text));
    std::string anchor = event_anchor(data.anchor);
    if (!anchor.empty()) anchors_[anchor] = {value, mark, mark + 1};
    deliver(std::move(value), mark);
  }

  static Json resolve(const yaml_event_t& event, std::string text) {
    const auto& data = event.data.scalar;
    std::string tag = data.tag != nullptr ? reinterpret_cast<const char*>(data.tag) : "";
    bool is_string =
        data.style != YAML_PLAIN_SCALAR_STYLE || tag == "tag:yaml.org,2002:str" || tag == "!";
    return is_string ? Json(std::move(text)) : resolve_plain_scalar(std::move(text));
  }

  /// ordered_json finds keys by linear search, fine for the few keys of most mappings; a
  /// hash set takes over for large ones (a big ConfigMap) so loading stays linear.
  static bool is_duplicate(Frame* frame, const std::string& key) {
    constexpr size_t kLinearSearchLimit = 16;
    if (frame->value.size() < kLinearSearchLimit) return frame->value.contains(key);
    if (frame->keys.empty()) {
      for (const auto& entry : frame->value.items())
        frame->keys.insert(entry.key());
    }
    return !frame->keys.insert(key).second;
  }

  void take_key(const yaml_event_t& event, std::string key) {
    Frame& frame = stack_.back();
    if (key == "<<" && event.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
      frame.merging = true;
      frame.has_key = true;
      frame.key_pos = pos_from_mark(event.start_mark);
      return;
    }
    bool duplicate = is_duplicate(&frame, key);
    frame.key = std::move(key);
    frame.has_key = true;
    frame.key_pos = pos_from_mark(event.start_mark);
    if (duplicate) fail(event.start_mark, "duplicate key \"" + frame.key + "\"");
  }

  void alias(const yaml_event_t& event) {
    std::string name = event_anchor(event.data.alias.anchor);
    auto it = anchors_.find(name);
    if (it == anchors_.end()) fail(event.start_mark, "unknown anchor \"" + name + "\"");
    if (expects_key()) fail(event.start_mark, "expected a plain key, found an alias");
    const Anchor& anchor = it->second;
    // The copy's nodes sit at the alias, so each gets the alias's position.
    size_t first = add_mark(event);
    for (size_t i = anchor.first_mark + 1; i < anchor.end_mark; ++i) {
      if (marks_.size() >= max_nodes_) fail(event.start_mark, "too many nodes (alias expansion?)");
      marks_.push_back({marks_[first].value, {}});
    }
    deliver(anchor.value, first);
  }

  /// Hands a finished node (whose marks start at `first_mark`) to its parent.
  void deliver(Json value, size_t first_mark) {
    if (stack_.empty()) {
      root_ = std::move(value);
      return;
    }
    Frame& parent = stack_.back();
    if (parent.merging) {
      // Kept aside, marks and all, until the mapping's own keys are known.
      parent.merges.emplace_back(
          std::move(value),
          std::vector<NodeMark>(marks_.begin() + static_cast<std::ptrdiff_t>(first_mark),
                                marks_.end()));
      marks_.resize(first_mark);
      parent.merging = false;
      parent.has_key = false;
      return;
    }
    if (parent.value.is_array()) {
      parent.value.push_back(std::move(value));
      return;
    }
    // Keys were checked for duplicates, so append without ordered_json's linear search.
    auto& entries =
        static_cast<Json::object_t::Container&>(parent.value.get_ref<Json::object_t&>());
    entries.emplace_back(std::move(parent.key), std::move(value));
    parent.key.clear();
    parent.has_key = false;
  }

  size_t max_nodes_;
  Json root_;
  std::vector<Frame> stack_;
  std::vector<NodeMark> marks_;
  std::unordered_map<std::string, Anchor> anchors_;
};

bool is_list(const Json& value) {
  if (!value.is_object()) return false;
  auto kind = value.find("kind");
  auto items = value.find("items");
  return kind != value.end() && *kind == "List" && items != value.end() && items->is_array();
}

/// The marks of the subtree of `marks` that starts at `first` and holds `value`.
std::vector<NodeMark> sub_marks(const std::vector<NodeMark>& marks, size_t first,
                                const Json& value) {
  size_t end = std::min(marks.size(), first + node_count(value));
  return std::vector<NodeMark>(marks.begin() + static_cast<std::ptrdiff_t>(first),
                               marks.begin() + static_cast<std::ptrdiff_t>(end));
}

void add_document(Document document, const std::vector<NodeMark>& marks, Diagnostics* diagnostics,
                  std::vector<Document>* out) {
  if (!document.value.is_object()) {
    diagnostics->error(document.file, document.pos_of(""), "",
                       "expected a Kubernetes object (a mapping with apiVersion and kind)");
    return;
  }
  if (!is_list(document.value)) {
    out->push_back(std::move(document));
    return;
  }
  // kubectl flattens `kind: List`. Each item gets the marks of its own subtree, which
  // sit together because marks are in document order.
  size_t first = 1;  // the List mapping itself is mark 0
  for (const auto& entry : document.value.items()) {
    if (entry.key() != "items") {
      first += node_count(entry.value());
      continue;
    }
    ++first;  // the items sequence
    for (const Json& item : entry.value()) {
      std::vector<NodeMark> item_marks = sub_marks(marks, first, item);
      first += node_count(item);
      Document child{document.file, document.index, item,
                     std::make_shared<MarkSourceMap>(item_marks)};
      add_document(std::move(child), item_marks, diagnostics, out);
    }
    break;
  }
}

/// Reads the documents of one chunk from its events; throws LoadError on the first
/// problem. Documents are numbered from 0 within the chunk; positions are those of the
/// whole input.
template <class Events>
void read_documents(const std::string& file, const Chunk& chunk, Events* events,
                    Diagnostics* diagnostics, std::vector<Document>* out) {
  size_t max_nodes = kMaxNodesPerByte * chunk.text.size() + 1024;
  int index = 0;
  for (;;) {
    const yaml_event_t& event = events->next();
    if (event.type == YAML_STREAM_END_EVENT) return;
    if (event.type != YAML_DOCUMENT_START_EVENT) continue;
    DocumentBuilder builder(max_nodes);
    Json value = builder.build(events);
    int this_index = index++;
    if (value.is_null()) continue;  // `---` with nothing after it, as kubectl skips it
    std::vector<NodeMark> marks = builder.take_marks();
    for (NodeMark& mark : marks) {
      mark.value.line += chunk.first_line;
      if (mark.key.line > 0) mark.key.line += chunk.first_line;
    }
    Document document{file, this_index, std::move(value), std::make_shared<MarkSourceMap>(marks)};
    add_document(std::move(document), marks, diagnostics, out);
  }
}

/// The chunk read without libyaml, when all of it is in BlockEventReader's subset and
/// loads without error; otherwise false, with nothing added.
bool read_block_subset(const std::string& file, const Chunk& chunk, Diagnostics* diagnostics,
                       std::vector<Document>* out) {
  Diagnostics found;
  std::vector<Document> documents;
  try {
    BlockEventReader events(chunk.text);
    read_documents(file, chunk, &events, &found, &documents);
  } catch (const OutsideSubset&) {
    return false;
  } catch (const LoadError&) {
    return false;  // libyaml's reading gives the message
  }
  for (const Diagnostic& finding : found.all())
    diagnostics->add(finding);
  std::move(documents.begin(), documents.end(), std::back_inserter(*out));
  return true;
}

/// Parses one chunk; throws LoadError on the first problem.
void parse_chunk(const std::string& file, const Chunk& chunk, Diagnostics* diagnostics,
                 std::vector<Document>* out) {
  if (read_block_subset(file, chunk, diagnostics, out)) return;
  EventSource events(chunk.text, chunk.first_line);
  try {
    read_documents(file, chunk, &events, diagnostics, out);
  } catch (LoadError& e) {
    if (e.field != kParserError) e.pos.line += chunk.first_line;  // parser errors have it
    e.field = e.field == kParserError ? "" : e.field;
    throw;
  }
}

/// Below this size a stream is parsed in one piece.
constexpr size_t kParallelParseBytes = 1 << 20;

}  // namespace

std::vector<Document> load_documents(const std::string& file, std::string_view text,
                                     Diagnostics* diagnostics) {
  if (!check_control_characters(file, text, diagnostics) || !check_json(file, text, diagnostics)) {
    return {};
  }
  // Several pieces per core, so a core that finishes early takes another.
  constexpr size_t kPiecesPerWorker = 4;
  size_t parts =
      text.size() < kParallelParseBytes ? 1 : kPiecesPerWorker * worker_count(text.size(), 1);
  std::vector<Chunk> chunks = split_stream(text, parts);
  std::vector<std::vector<Document>> parsed(chunks.size());
  std::vector<Diagnostics> findings(chunks.size());
  parallel_for(
      chunks.size(),
      [&](size_t i, size_t) {
        try {
          parse_chunk(file, chunks[i], &findings[i], &parsed[i]);
        } catch (const LoadError& e) {
          findings[i].error(file, e.pos, e.field, e.what());
        }
      },
      /*min_items=*/1);
  std::vector<Document> out;
  bool failed = false;
  int index_base = 0;
  for (size_t i = 0; i < chunks.size(); ++i) {
    for (const Diagnostic& finding : findings[i].all())
      diagnostics->add(finding);
    failed = failed || findings[i].has_errors();
    int chunk_documents = 0;
    for (Document& document : parsed[i]) {
      chunk_documents = std::max(chunk_documents, document.index + 1);
      document.index += index_base;
      out.push_back(std::move(document));
    }
    index_base += chunk_documents;
  }
  if (failed) out.clear();  // nothing half-read
  return out;
}

}  // namespace trainjob
