// Prefix and suffix tests on text (C++17 has neither; C++20's std::string::starts_with).
#ifndef TRAINJOB_UTIL_TEXT_H_
#define TRAINJOB_UTIL_TEXT_H_

#include <string_view>

namespace trainjob {

inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

inline bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_TEXT_H_
