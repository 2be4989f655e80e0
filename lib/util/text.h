// Prefix and suffix tests on text (C++17 has neither; C++20's std::string::starts_with), and
// ASCII case folding for the words Kubernetes matches without regard to case.
#ifndef TRAINJOB_UTIL_TEXT_H_
#define TRAINJOB_UTIL_TEXT_H_

#include <cctype>
#include <string>
#include <string_view>

namespace trainjob {

inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

inline bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

/// `text` with ASCII letters in lower case; other bytes (UTF-8 too) as they are.
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_TEXT_H_
