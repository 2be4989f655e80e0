// Cutting a large YAML stream into pieces that parse on their own, for several cores.
#ifndef TRAINJOB_LOAD_YAML_STREAM_SPLIT_H_
#define TRAINJOB_LOAD_YAML_STREAM_SPLIT_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace trainjob {

/// A piece of a stream that starts at a document boundary.
struct Chunk {
  std::string_view text;
  int first_line = 0;  ///< from 0, in the whole input
};

/// Splits a large stream at `---` lines into about `parts` chunks. A `---` at the start of
/// a line always starts a document (inside a quoted string it is an error anyway), so
/// each chunk parses on its own. Streams with directives (`%YAML`) stay whole.
std::vector<Chunk> split_stream(std::string_view text, size_t parts);

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_YAML_STREAM_SPLIT_H_
