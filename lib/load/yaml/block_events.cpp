// Line by line: each content line closes the blocks it is less indented than, then adds
// one entry (`key: value`, `key:`, `- value`, `- key: value`) to the block at its column.
#include "load/yaml/block_events.h"

#include <cstring>

#include "load/yaml/block_scalars.h"

namespace trainjob {
namespace {

/// A byte the subset leaves to libyaml wherever it appears: tabs, carriage returns and
/// other control characters, and non-ASCII text (libyaml checks its UTF-8).
bool outside_subset_byte(char c) {
  auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte >= 0x7f;
}

}  // namespace

const yaml_event_t& BlockEventReader::next() {
  while (head_ == queue_.size()) {
    queue_.clear();
    head_ = 0;
    read_line();
  }
  return queue_[head_++];
}

yaml_mark_t BlockEventReader::mark(const Line& line, size_t column) const {
  yaml_mark_t at{};
  at.index = line.offset + column;
  at.line = static_cast<size_t>(line.number);
  at.column = column;
  return at;
}

yaml_event_t& BlockEventReader::push(yaml_event_type_t type, yaml_mark_t at) {
  yaml_event_t& event = queue_.emplace_back();
  std::memset(&event, 0, sizeof event);
  event.type = type;
  event.start_mark = at;
  event.end_mark = at;
  return event;
}

void BlockEventReader::push_scalar(const Line& line, const ScannedScalar& scalar) {
  size_t start = scalar.style == YAML_PLAIN_SCALAR_STYLE ? scalar.begin : scalar.begin - 1;
  yaml_event_t& event = push(YAML_SCALAR_EVENT, mark(line, start));
  // libyaml's events own their text; these point into ours, which outlives them.
  event.data.scalar.value =
      reinterpret_cast<yaml_char_t*>(const_cast<char*>(line.text.data() + scalar.begin));
  event.data.scalar.length = scalar.end - scalar.begin;
  event.data.scalar.style = scalar.style;
  event.data.scalar.plain_implicit = scalar.style == YAML_PLAIN_SCALAR_STYLE;
  event.data.scalar.quoted_implicit = scalar.style != YAML_PLAIN_SCALAR_STYLE;
}

void BlockEventReader::push_empty_scalar(yaml_mark_t at) {
  static char empty[] = "";
  yaml_event_t& event = push(YAML_SCALAR_EVENT, at);
  event.data.scalar.value = reinterpret_cast<yaml_char_t*>(empty);
  event.data.scalar.style = YAML_PLAIN_SCALAR_STYLE;
  event.data.scalar.plain_implicit = 1;
}

void BlockEventReader::push_block(const Line& line, size_t column, bool is_sequence,
                                  bool indentless) {
  yaml_event_t& event =
      push(is_sequence ? YAML_SEQUENCE_START_EVENT : YAML_MAPPING_START_EVENT, mark(line, column));
  if (is_sequence) {
    event.data.sequence_start.implicit = 1;
    event.data.sequence_start.style = YAML_BLOCK_SEQUENCE_STYLE;
  } else {
    event.data.mapping_start.implicit = 1;
    event.data.mapping_start.style = YAML_BLOCK_MAPPING_STYLE;
  }
  blocks_.push_back({is_sequence, column, indentless});
}

void BlockEventReader::pop_block() {
  push(blocks_.back().is_sequence ? YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT, {});
  blocks_.pop_back();
}

bool BlockEventReader::next_line(Line* line) {
  if (position_ >= text_.size()) return false;
  size_t end = text_.find('\n', position_);
  if (end == std::string_view::npos) end = text_.size();
  line->text = text_.substr(position_, end - position_);
  line->offset = position_;
  line->number = line_number_++;
  position_ = end + 1;
  for (char c : line->text) {
    if (outside_subset_byte(c)) throw OutsideSubset();
  }
  line->indent = line->text.find_first_not_of(' ');
  if (line->indent == std::string_view::npos) line->indent = line->text.size();
  return true;
}

void BlockEventReader::read_line() {
  if (phase_ == Phase::kStreamStart) {
    push(YAML_STREAM_START_EVENT, {});
    phase_ = Phase::kBeforeDocument;
    return;
  }
  Line line;
  if (phase_ == Phase::kEnded || !next_line(&line)) {
    // libyaml ends the stream on a line of its own.
    yaml_mark_t end{};
    end.index = text_.size();
    end.line = static_cast<size_t>(line_number_);
    if (phase_ == Phase::kInDocument) end_document(end);
    push(YAML_STREAM_END_EVENT, end);
    phase_ = Phase::kEnded;
    return;
  }
  std::string_view text = line.text;
  if (text.substr(0, 3) == "---" && is_blank_at(text, 3)) return document_marker(line);
  if (text.substr(0, 3) == "..." && is_blank_at(text, 3)) throw OutsideSubset();
  if (line.indent == text.size() || text[line.indent] == '#') return;  // blank or comment
  if (phase_ == Phase::kBeforeDocument) {
    push(YAML_DOCUMENT_START_EVENT, mark(line, 0)).data.document_start.implicit = 1;
    phase_ = Phase::kInDocument;
  }
  content_line(line);
}

void BlockEventReader::document_marker(const Line& line) {
  if (!rest_is_blank_or_comment(line.text, 3)) throw OutsideSubset();
  if (phase_ == Phase::kInDocument) end_document(mark(line, 0));
  push(YAML_DOCUMENT_START_EVENT, mark(line, 0));
  phase_ = Phase::kInDocument;
}

void BlockEventReader::end_document(yaml_mark_t at) {
  if (pending_key_) push_empty_scalar(pending_mark_);
  pending_key_ = false;
  after_scalar_ = false;
  while (!blocks_.empty())
    pop_block();
  // An explicit document with nothing in it holds one empty scalar, placed where the
  // next document or the stream's end starts.
  if (!has_root_) push_empty_scalar(at);
  has_root_ = false;
  push(YAML_DOCUMENT_END_EVENT, at);
}

void BlockEventReader::content_line(const Line& line) {
  const size_t indent = line.indent;
  if (pending_key_) {
    pending_key_ = false;
    const Block& owner = blocks_.back();
    if (indent > owner.indent) return open_nested_block(line);
    if (indent == owner.indent && is_entry_dash(line.text, indent)) {
      push_block(line, indent, /*is_sequence=*/true, /*indentless=*/true);
      return entry(line, indent);
    }
    push_empty_scalar(pending_mark_);
  } else if (blocks_.empty()) {
    // A document's first content line starts its root collection.
    if (has_root_) throw OutsideSubset();
    has_root_ = true;
    return open_nested_block(line);
  } else if (after_scalar_ && indent > blocks_.back().indent) {
    throw OutsideSubset();  // a scalar continued on a deeper line, or an error
  }
  close_blocks_deeper_than(indent);
  if (blocks_.empty() || blocks_.back().indent != indent) throw OutsideSubset();
  const Block& block = blocks_.back();
  bool dash = is_entry_dash(line.text, indent);
  // An indentless sequence ends at the first line of its column without a `-`.
  if (block.indentless && !dash) pop_block();
  entry(line, indent);
}

void BlockEventReader::open_nested_block(const Line& line) {
  size_t column = line.indent;
  bool dash = is_entry_dash(line.text, column);
  if (!dash) {
    // Only a mapping may start here; a scalar alone on its line is left to libyaml.
    ScannedScalar key;
    size_t colon = 0;
    if (!scan_key(line.text, column, &key, &colon)) throw OutsideSubset();
  }
  push_block(line, column, dash, /*indentless=*/false);
  entry(line, column);
}

void BlockEventReader::close_blocks_deeper_than(size_t indent) {
  while (!blocks_.empty() && blocks_.back().indent > indent)
    pop_block();
}

void BlockEventReader::entry(const Line& line, size_t column) {
  after_scalar_ = false;
  if (blocks_.back().is_sequence) {
    sequence_entry(line, column);
  } else {
    mapping_entry(line, column);
  }
}

void BlockEventReader::sequence_entry(const Line& line, size_t column) {
  std::string_view text = line.text;
  if (!is_entry_dash(text, column)) throw OutsideSubset();
  size_t item = text.find_first_not_of(' ', column + 1);
  // `-` alone, `- # note` and `- - x` are valid YAML, but rare in manifests.
  if (item == std::string_view::npos || text[item] == '#' || is_entry_dash(text, item)) {
    throw OutsideSubset();
  }
  ScannedScalar key;
  size_t colon = 0;
  if (scan_key(line.text, item, &key, &colon)) {
    push_block(line, item, /*is_sequence=*/false, /*indentless=*/false);
    return mapping_entry(line, item);
  }
  value(line, item);
}

void BlockEventReader::mapping_entry(const Line& line, size_t column) {
  ScannedScalar key;
  size_t colon = 0;
  if (!scan_key(line.text, column, &key, &colon)) throw OutsideSubset();
  std::string_view name = line.text.substr(key.begin, key.end - key.begin);
  // The merge key has its own rules in the document builder; libyaml's marks for them.
  if (key.style == YAML_PLAIN_SCALAR_STYLE && name == "<<") throw OutsideSubset();
  push_scalar(line, key);
  if (rest_is_blank_or_comment(line.text, colon + 1)) {
    pending_key_ = true;
    pending_mark_ = mark(line, colon + 1);
    return;
  }
  value(line, line.text.find_first_not_of(' ', colon + 1));
}

void BlockEventReader::value(const Line& line, size_t column) {
  char first = line.text[column];
  if (first == '[' || first == '{') {
    flow_collection(line, column);
  } else {
    push_scalar(line, scan_value(line.text, column));
  }
  after_scalar_ = true;
}

/// `[a, "b"]`, `{k: v}`, `[]`, `{}` within one line; anything nested is left to libyaml.
void BlockEventReader::flow_collection(const Line& line, size_t column) {
  std::string_view text = line.text;
  const bool is_mapping = text[column] == '{';
  const char close = is_mapping ? '}' : ']';
  push(is_mapping ? YAML_MAPPING_START_EVENT : YAML_SEQUENCE_START_EVENT, mark(line, column));
  size_t i = skip_spaces(text, column + 1);
  if (i < text.size() && text[i] == close) {
    ++i;
  } else {
    for (;;) {
      ScannedScalar item = scan_flow_scalar(text, i);
      push_scalar(line, item);
      i = skip_spaces(text, item.after);
      if (is_mapping) {
        if (i >= text.size() || text[i] != ':' || !is_blank_at(text, i + 1)) throw OutsideSubset();
        ScannedScalar mapped = scan_flow_scalar(text, skip_spaces(text, i + 1));
        push_scalar(line, mapped);
        i = skip_spaces(text, mapped.after);
      }
      if (i >= text.size()) throw OutsideSubset();
      if (text[i] == close) {
        ++i;
        break;
      }
      if (text[i] != ',') throw OutsideSubset();
      i = skip_spaces(text, i + 1);
    }
  }
  if (!rest_is_blank_or_comment(text, i)) throw OutsideSubset();
  push(is_mapping ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT, {});
}

}  // namespace trainjob
