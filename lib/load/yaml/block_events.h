// The shape nearly every Kubernetes manifest has -- block mappings and sequences whose
// scalars each fit on one line -- read without libyaml, giving the very events libyaml's
// parser gives for it. libyaml allocates every token and event; on a stream of TrainJobs
// that was a third of validate's time. This reader points into the text instead.
//
// Flow collections of scalars within one line (`[a, b]`, `{}`) are read too. Anything
// outside that subset (other flow collections, anchors, aliases, tags, block or
// multi-line scalars, escapes, tabs, non-ASCII text, directives, `...`) and anything
// malformed throws OutsideSubset before the caller has used a result, and the caller reads
// the text with libyaml. So what a stream means, and every error message, stay libyaml's;
// a differential fuzz target holds the two readers to the same events.
#ifndef TRAINJOB_LOAD_YAML_BLOCK_EVENTS_H_
#define TRAINJOB_LOAD_YAML_BLOCK_EVENTS_H_

#include <cstddef>
#include <string_view>
#include <vector>
#include <yaml.h>

#include "load/yaml/block_scalars.h"

namespace trainjob {

/// Thrown where the text leaves the subset; not an error of the text.
struct OutsideSubset {};

class BlockEventReader {
 public:
  explicit BlockEventReader(std::string_view text) : text_(text) {}

  /// The next event, as yaml_parser_parse would give it: node events carry libyaml's start
  /// marks, scalar values point into the text. Valid until the next call.
  const yaml_event_t& next();

 private:
  /// One line of the text, without its line break.
  struct Line {
    std::string_view text;
    size_t offset = 0;  ///< of its first character in the whole text
    int number = 0;     ///< from 0
    size_t indent = 0;  ///< leading spaces
  };
  struct Block {
    bool is_sequence = false;
    size_t indent = 0;        ///< column of its keys or its `-`s
    bool indentless = false;  ///< a sequence whose `-`s sit at its key's column
  };
  enum class Phase { kStreamStart, kBeforeDocument, kInDocument, kEnded };

  void read_line();
  bool next_line(Line* line);
  void document_marker(const Line& line);
  void content_line(const Line& line);
  void open_nested_block(const Line& line);
  void close_blocks_deeper_than(size_t indent);
  void end_document(yaml_mark_t at);
  void entry(const Line& line, size_t column);
  void sequence_entry(const Line& line, size_t column);
  void mapping_entry(const Line& line, size_t column);
  void value(const Line& line, size_t column);
  void flow_collection(const Line& line, size_t column);

  yaml_mark_t mark(const Line& line, size_t column) const;
  yaml_event_t& push(yaml_event_type_t type, yaml_mark_t at);
  void push_scalar(const Line& line, const ScannedScalar& scalar);
  void push_empty_scalar(yaml_mark_t at);
  void push_block(const Line& line, size_t column, bool is_sequence, bool indentless);
  void pop_block();

  std::string_view text_;
  size_t position_ = 0;  ///< start of the next unread line
  int line_number_ = 0;
  Phase phase_ = Phase::kStreamStart;
  bool has_root_ = false;
  std::vector<Block> blocks_;
  /// A key whose value did not follow on its line: a nested block, or an empty scalar
  /// at `pending_mark_` (just after the colon, where libyaml puts it).
  bool pending_key_ = false;
  yaml_mark_t pending_mark_{};
  /// The last line ended in a scalar: a deeper line after it would continue that scalar.
  bool after_scalar_ = false;
  std::vector<yaml_event_t> queue_;
  size_t head_ = 0;
};

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_BLOCK_EVENTS_H_
