// YAML streams -> Json documents, from libyaml's parser events, or from BlockEventReader's
// identical ones where the text is in its subset: the Json is built directly from the
// events, with an explicit stack (no recursion, so no depth limit of the parser's own),
// and the position of every node is recorded on the way.
#include "load/yaml_loader.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <yaml.h>

#include "load/text_checks.h"
#include "load/typing_checks.h"
#include "load/yaml/block_events.h"
#include "load/yaml/document_builder.h"
#include "load/yaml/mark_source_map.h"
#include "load/yaml/stream_split.h"
#include "util/byte_scan.h"
#include "util/parallel.h"

namespace trainjob {
namespace {

/// Field of the LoadErrors libyaml's parser raises: their position is already absolute.
const char* const kParserError = "\x01parser";

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
    // The reader (invalid UTF-8) knows only the byte offset of the problem.
    if (parser_.error == YAML_READER_ERROR) {
      where = position_of(text_, parser_.problem_offset);
      message = std::string("invalid YAML: ") +
                (parser_.problem != nullptr ? parser_.problem : "cannot be read");
    }
    where.line += first_line_;
    throw LoadError(where, kParserError, message);
  }

  std::string_view text_;
  int first_line_;
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
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
  int index = 0;
  for (;;) {
    const yaml_event_t& event = events->next();
    if (event.type == YAML_STREAM_END_EVENT) return;
    if (event.type != YAML_DOCUMENT_START_EVENT) continue;
    DocumentBuilder builder;
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
  StreamPosition start;
  return load_stream_piece(file, text, &start, diagnostics);
}

std::vector<Document> load_stream_piece(const std::string& file, std::string_view text,
                                        StreamPosition* at, Diagnostics* diagnostics) {
  int first_line = at->line;
  at->line += static_cast<int>(count_newlines(text));
  // Only a stream's first piece can be JSON: the reader never cuts a JSON text.
  if (!check_control_characters(file, text, first_line, diagnostics) ||
      (first_line == 0 && !check_json(file, text, diagnostics)) ||
      !check_document_count(file, text, first_line, &at->markers, diagnostics)) {
    return {};
  }
  // JSON quotes every key and string, so a full-width mark in it is content or a JSON
  // syntax error already reported where it is.
  size_t first = text.find_first_not_of(" \t\r\n");
  bool json = first_line == 0 && first != std::string_view::npos && text[first] == '{';
  if (!json && !check_typing(file, text, first_line, diagnostics)) return {};
  // Several pieces per core, so a core that finishes early takes another.
  constexpr size_t kPiecesPerWorker = 4;
  size_t parts =
      text.size() < kParallelParseBytes ? 1 : kPiecesPerWorker * worker_count(text.size(), 1);
  std::vector<Chunk> chunks = split_stream(text, parts);
  for (Chunk& chunk : chunks)
    chunk.first_line += first_line;
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
  for (size_t i = 0; i < chunks.size(); ++i) {
    for (const Diagnostic& finding : findings[i].all())
      diagnostics->add(finding);
    failed = failed || findings[i].has_errors();
    int chunk_documents = 0;
    for (Document& document : parsed[i]) {
      chunk_documents = std::max(chunk_documents, document.index + 1);
      document.index += at->index;
      out.push_back(std::move(document));
    }
    at->index += chunk_documents;
  }
  if (failed) out.clear();  // nothing half-read
  return out;
}

}  // namespace trainjob
