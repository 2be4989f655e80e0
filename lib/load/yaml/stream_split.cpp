#include "load/yaml/stream_split.h"

#include <algorithm>

#include "util/byte_scan.h"

namespace trainjob {

std::vector<Chunk> split_stream(std::string_view text, size_t parts) {
  std::vector<Chunk> chunks;
  bool has_directives = !text.empty() && (text[0] == '%' || text.find("\n%") != text.npos);
  if (parts <= 1 || has_directives) return {{text, 0}};
  size_t start = 0;
  int line = 0;
  for (size_t part = 1; part < parts; ++part) {
    size_t target = text.size() * part / parts;
    size_t boundary = text.find("\n---", std::max(target, start));
    while (boundary != text.npos) {
      char after = boundary + 4 < text.size() ? text[boundary + 4] : '\n';
      if (after == '\n' || after == ' ' || after == '\t' || after == '\r') break;
      boundary = text.find("\n---", boundary + 1);
    }
    if (boundary == text.npos) break;
    chunks.push_back({text.substr(start, boundary + 1 - start), line});
    line += static_cast<int>(count_newlines(text.substr(start, boundary + 1 - start)));
    start = boundary + 1;
  }
  chunks.push_back({text.substr(start), line});
  return chunks;
}

}  // namespace trainjob
