// "Did you mean" for misspelt field names.
#ifndef TRAINJOB_UTIL_SUGGEST_H_
#define TRAINJOB_UTIL_SUGGEST_H_

#include <string>
#include <string_view>
#include <vector>

namespace trainjob {

/// Edit distance (insertions, deletions, substitutions), case-insensitive.
size_t edit_distance(std::string_view a, std::string_view b);
/// The closest candidate if it is close enough to be a likely typo, else empty.
std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_SUGGEST_H_
