#include "local/plan/expand.h"

namespace trainjob {

std::string expand_references(std::string_view input, const VariableLookup& lookup) {
  std::string out;
  out.reserve(input.size());
  size_t i = 0;
  while (i < input.size()) {
    // A `$` at the very end has nothing after it to combine with.
    if (input[i] != '$' || i + 1 == input.size()) {
      out += input[i++];
      continue;
    }
    char next = input[i + 1];
    if (next == '(') {
      size_t close = input.find(')', i + 2);
      if (close != std::string_view::npos) {
        std::string_view name = input.substr(i + 2, close - i - 2);
        const std::string* value = lookup(name);
        if (value != nullptr) {
          out += *value;
        } else {
          out.append(input, i, close - i + 1);
        }
        i = close + 1;
        continue;
      }
    }
    // `$$` is one `$`; `$x` and an unclosed `$(` stay as they are. Either way the two
    // characters are consumed together, so `$$(A)` never becomes a reference.
    if (next == '$') {
      out += '$';
    } else {
      out += '$';
      out += next;
    }
    i += 2;
  }
  return out;
}

}  // namespace trainjob
