// `diff -u`-style text for `render --check`: what would change in a file of DIR.
#ifndef TRAINJOB_OUTPUT_UNIFIED_DIFF_H_
#define TRAINJOB_OUTPUT_UNIFIED_DIFF_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace trainjob {

/// Lines of context around each change, as `diff -u` prints by default.
inline constexpr size_t kDiffContext = 3;
/// The most edits the line matcher searches for; past it (or past kDiffMaxWork steps) the
/// differing middle of the files is shown as one block removed and one added. The diff is
/// still correct, only not minimal, and time and memory stay bounded for any input.
inline constexpr size_t kDiffMaxEdits = 2000;
inline constexpr size_t kDiffMaxWork = 50'000'000;

/// The unified diff that turns `before` into `after`: `--- <old_label>`, `+++ <new_label>`,
/// then `@@ -l,n +l,n @@` hunks of ` `, `-` and `+` lines with `context` lines around each
/// change, and `\ No newline at end of file` after a last line that has none. "" when the
/// two are equal.
std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& old_label, const std::string& new_label,
                         size_t context = kDiffContext);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_UNIFIED_DIFF_H_
