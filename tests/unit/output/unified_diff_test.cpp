// unified_diff: the text `diff -u` would print, and a diff that always applies.
#include "output/unified_diff.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <sstream>
#include <vector>

#include <doctest/doctest.h>

namespace trainjob {
namespace {

/// Applies a unified diff to `before` the way `patch` does, checking every context and
/// removed line; returns the new text, or "<bad>" when the diff does not fit.
std::string apply_diff(const std::string& before, const std::string& diff) {
  std::vector<std::string> old_lines;  // each with its '\n', if any
  for (size_t start = 0; start < before.size();) {
    size_t end = before.find('\n', start);
    end = end == std::string::npos ? before.size() : end + 1;
    old_lines.push_back(before.substr(start, end - start));
    start = end;
  }
  std::istringstream in(diff);
  std::string line, out;
  size_t next = 0;  // first old line not yet copied
  std::getline(in, line);
  std::getline(in, line);  // the two header lines
  char last_kind = 0;
  while (std::getline(in, line)) {
    if (line.rfind("@@ -", 0) == 0) {
      size_t start = std::strtoul(line.c_str() + 4, nullptr, 10);
      size_t comma = line.find(',');
      bool empty = comma < line.find(' ', 4) && line[comma + 1] == '0';
      for (size_t first = empty ? start : start - 1; next < first; ++next)
        out += old_lines[next];
      last_kind = 0;
    } else if (line == "\\ No newline at end of file") {
      if (last_kind == 0) return "<bad>";
      if (last_kind != '-') out.pop_back();  // the '\n' the line was given
    } else {
      last_kind = line[0];
      std::string text = line.substr(1) + "\n";
      if (last_kind == ' ' || last_kind == '-') {
        if (next >= old_lines.size()) return "<bad>";
        std::string old = old_lines[next++];
        if (old.back() != '\n') old += '\n';
        if (old != text) return "<bad>";
      }
      if (last_kind == ' ' || last_kind == '+') out += text;
    }
  }
  for (; next < old_lines.size(); ++next)
    out += old_lines[next];
  return out;
}

/// Lines removed plus lines added by the shortest edit script (quadratic, for small tests).
size_t edit_distance(const std::string& before, const std::string& after) {
  auto split = [](const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    if (!text.empty() && text.back() != '\n') lines.back() += "<no newline>";
    return lines;
  };
  std::vector<std::string> a = split(before), b = split(after);
  std::vector<std::vector<size_t>> common(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;) {
    for (size_t j = b.size(); j-- > 0;) {
      common[i][j] =
          a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  return a.size() + b.size() - 2 * common[0][0];
}

/// The '-' and '+' lines of a diff.
size_t edits_in(const std::string& diff) {
  size_t count = 0;
  std::istringstream in(diff);
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  while (std::getline(in, line))
    count += line[0] == '-' || line[0] == '+';
  return count;
}

TEST_CASE("unified diff: equal inputs give nothing") {
  CHECK(unified_diff("a\nb\n", "a\nb\n", "a/x", "b/x").empty());
  CHECK(unified_diff("", "", "a/x", "b/x").empty());
}

TEST_CASE("unified diff: one changed line with three lines of context, as diff -u") {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  CHECK(unified_diff(before, after, "a/x.yaml", "b/x.yaml") ==
        "--- a/x.yaml\n+++ b/x.yaml\n"
        "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST_CASE("unified diff: distant changes get separate hunks, close ones share one") {
  std::string before, far_after, near_after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    far_after += (i == 2 || i == 18 ? "x" : std::to_string(i)) + "\n";
    near_after += (i == 2 || i == 8 ? "x" : std::to_string(i)) + "\n";
  }
  CHECK(unified_diff(before, far_after, "a", "b") ==
        "--- a\n+++ b\n"
        "@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"
        "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n");
  CHECK(unified_diff(before, near_after, "a", "b") ==
        "--- a\n+++ b\n"
        "@@ -1,11 +1,11 @@\n 1\n-2\n+x\n 3\n 4\n 5\n 6\n 7\n-8\n+x\n 9\n 10\n 11\n");
}

TEST_CASE("unified diff: empty files and ranges name the line before") {
  CHECK(unified_diff("", "a\n", "a", "b") == "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n");
  CHECK(unified_diff("a\nb\n", "", "a", "b") == "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n");
  CHECK(unified_diff("a\nb\n", "a\nb\nc\n", "a", "b") ==
        "--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n b\n+c\n");
}

TEST_CASE("unified diff: a missing last newline is a change, and is marked") {
  CHECK(unified_diff("a\nb", "a\nb\n", "a", "b") ==
        "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
  CHECK(unified_diff("a\nb", "c\nb", "a", "b") ==
        "--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+c\n b\n\\ No newline at end of file\n");
}

TEST_CASE("unified diff: random edits are minimal and always apply") {
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    std::string before, after;
    int lines = static_cast<int>(random() % 40);
    for (int i = 0; i < lines; ++i) {
      std::string line = std::to_string(random() % 6);
      before += line + "\n";
      switch (random() % 5) {
        case 0:
          break;  // removed
        case 1:
          after += "new" + std::to_string(i) + "\n";
          break;  // replaced
        case 2:
          after += line + "\n" + "ins\n";
          break;  // kept, one added
        default:
          after += line + "\n";
      }
    }
    if (random() % 4 == 0 && !after.empty()) after.pop_back();
    std::string diff = unified_diff(before, after, "a", "b");
    CAPTURE(before);
    CAPTURE(after);
    CHECK(apply_diff(before, diff) == after);
    CHECK(diff.empty() == (before == after));
    CHECK(edits_in(diff) == edit_distance(before, after));
  }
}

TEST_CASE("unified diff: past the edit budget the middle is one block, still correct") {
  std::string before, after;
  for (size_t i = 0; i < 3 * kDiffMaxEdits; ++i) {
    before += "old " + std::to_string(i) + "\n";
    after += "new " + std::to_string(i) + "\n";
  }
  before = "same\n" + before + "end\n";
  after = "same\n" + after + "end\n";
  std::string diff = unified_diff(before, after, "a", "b");
  CHECK(apply_diff(before, diff) == after);
  CHECK(diff.find("@@ -1," + std::to_string(3 * kDiffMaxEdits + 2) + " +1,") != std::string::npos);
}

}  // namespace
}  // namespace trainjob
