// A line diff written here rather than taken from a library: Debian's libdtl-dev
// (Wu's O(NP) algorithm) has no bound on work or memory for two large, very different
// files and no notion of a last line without '\n'; both would need wrapping code as long
// as this file. This is Myers' greedy O(ND) search with an edit budget, after the common
// first and last lines are taken off.
#include "output/unified_diff.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace trainjob {
namespace {

/// Gives each distinct line a number, so that the search compares integers. A last line
/// without '\n' is numbered apart from the same text with one: "x" and "x\n" differ.
class LineIds {
 public:
  int id(std::string_view line, bool unterminated) {
    auto& table = unterminated ? unterminated_ : terminated_;
    auto [it, added] = table.emplace(line, next_);
    if (added) ++next_;
    return it->second;
  }

 private:
  std::unordered_map<std::string_view, int> terminated_;
  std::unordered_map<std::string_view, int> unterminated_;
  int next_ = 0;
};

struct Lines {
  std::vector<std::string_view> text;  ///< without the '\n'
  std::vector<int> ids;
  bool unterminated = false;  ///< the last line has no '\n'
};

Lines split_lines(std::string_view data, LineIds* ids) {
  Lines lines;
  size_t start = 0;
  while (start < data.size()) {
    size_t end = data.find('\n', start);
    bool open = end == std::string_view::npos;
    if (open) end = data.size();
    lines.text.push_back(data.substr(start, end - start));
    lines.ids.push_back(ids->id(lines.text.back(), open));
    lines.unterminated = open;
    start = end + 1;
  }
  return lines;
}

/// Lines a[a_begin, a_end) replaced by b[b_begin, b_end); either side may be empty.
struct Change {
  size_t a_begin, a_end, b_begin, b_end;
};

/// A run of equal lines: a[x, x + length) == b[y, y + length).
struct Run {
  size_t x, y, length;
};

/// The furthest x reached on each diagonal k before each step d: trace[d][k + d + 1].
using MyersTrace = std::vector<std::vector<long>>;

/// Myers' forward search over a[0, n) and b[0, m): the number of edits of a shortest script,
/// with the trace to walk it back; -1 when it needs more than kDiffMaxEdits edits or
/// kDiffMaxWork steps.
long search_forward(const int* a, long n, const int* b, long m, MyersTrace* trace) {
  const long max_d = std::min<long>(n + m, static_cast<long>(kDiffMaxEdits));
  std::vector<long> v(2 * max_d + 3, 0);
  const long offset = max_d + 1;
  size_t work = 0;
  long found = -1;
  for (long d = 0; d <= max_d && found < 0; ++d) {
    trace->emplace_back(v.begin() + offset - d - 1, v.begin() + offset + d + 2);
    for (long k = -d; k <= d; k += 2) {
      bool down = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]);
      long x = down ? v[offset + k + 1] : v[offset + k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y]) {
        ++x, ++y;
        ++work;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    work += static_cast<size_t>(d) + 1;
    if (work > kDiffMaxWork) return -1;
  }
  return found;
}

/// The equal runs of the script of `edits` steps that `trace` recorded, in order.
void trace_back(const MyersTrace& trace, long edits, long n, long m, std::vector<Run>* runs) {
  long x = n, y = m;
  for (long d = edits; d >= 0; --d) {
    const std::vector<long>& before = trace[d];
    auto at = [&](long k) { return before[k + d + 1]; };
    long k = x - y;
    long prev_x = 0, prev_y = 0, snake_x = 0;
    if (d > 0) {
      bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
      long prev_k = down ? k + 1 : k - 1;
      prev_x = at(prev_k);
      prev_y = prev_x - prev_k;
      // The equal run of step d starts where its edit ends: one line down (an insertion)
      // or one line right (a deletion) of the previous point.
      snake_x = down ? prev_x : prev_x + 1;
    }
    long length = x - snake_x;
    if (length > 0)
      runs->push_back({static_cast<size_t>(snake_x), static_cast<size_t>(snake_x - k),
                       static_cast<size_t>(length)});
    x = prev_x;
    y = prev_y;
  }
  std::reverse(runs->begin(), runs->end());
}

/// Myers' search over a[0, n) and b[0, m): the equal runs of a shortest edit script, in
/// order, or false when it needs more than kDiffMaxEdits edits or kDiffMaxWork steps.
bool shortest_script(const int* a, long n, const int* b, long m, std::vector<Run>* runs) {
  MyersTrace trace;
  long edits = search_forward(a, n, b, m, &trace);
  if (edits < 0) return false;
  trace_back(trace, edits, n, m, runs);
  return true;
}

/// The changes between two line lists: common first and last lines taken off, then the
/// middle searched; a middle over budget is one change.
std::vector<Change> find_changes(const Lines& a, const Lines& b) {
  size_t na = a.ids.size(), nb = b.ids.size();
  size_t head = 0;
  while (head < na && head < nb && a.ids[head] == b.ids[head])
    ++head;
  size_t tail = 0;
  while (tail < na - head && tail < nb - head && a.ids[na - 1 - tail] == b.ids[nb - 1 - tail])
    ++tail;
  std::vector<Run> runs;
  long n = static_cast<long>(na - head - tail), m = static_cast<long>(nb - head - tail);
  if (!shortest_script(a.ids.data() + head, n, b.ids.data() + head, m, &runs)) runs.clear();
  runs.push_back({static_cast<size_t>(n), static_cast<size_t>(m), 0});  // the end
  std::vector<Change> changes;
  size_t x = 0, y = 0;
  for (const Run& run : runs) {
    if (run.x > x || run.y > y) changes.push_back({head + x, head + run.x, head + y, head + run.y});
    x = run.x + run.length;
    y = run.y + run.length;
  }
  return changes;
}

/// `start,count` of a hunk header; a count of 1 is left out and an empty range names the
/// line before it, as `diff -u` writes them.
std::string header_range(size_t start, size_t count) {
  if (count == 0) return std::to_string(start) + ",0";
  if (count == 1) return std::to_string(start + 1);
  return std::to_string(start + 1) + "," + std::to_string(count);
}

void add_line(char prefix, const Lines& lines, size_t index, std::string* out) {
  *out += prefix;
  out->append(lines.text[index]);
  *out += '\n';
  if (lines.unterminated && index + 1 == lines.text.size())
    *out += "\\ No newline at end of file\n";
}

/// One hunk: changes[first..last], which lie close enough to share their context.
void add_hunk(const Lines& a, const Lines& b, const std::vector<Change>& changes, size_t first,
              size_t last, size_t context, std::string* out) {
  const Change& head = changes[first];
  const Change& tail = changes[last];
  size_t before = std::min(context, head.a_begin);
  size_t after = std::min(context, a.text.size() - tail.a_end);
  size_t a_start = head.a_begin - before, b_start = head.b_begin - before;
  size_t a_stop = tail.a_end + after, b_stop = tail.b_end + after;
  *out += "@@ -" + header_range(a_start, a_stop - a_start) + " +" +
          header_range(b_start, b_stop - b_start) + " @@\n";
  size_t x = a_start;
  for (size_t i = first; i <= last; ++i) {
    const Change& change = changes[i];
    for (; x < change.a_begin; ++x)
      add_line(' ', a, x, out);
    for (size_t j = change.a_begin; j < change.a_end; ++j)
      add_line('-', a, j, out);
    for (size_t j = change.b_begin; j < change.b_end; ++j)
      add_line('+', b, j, out);
    x = change.a_end;
  }
  for (; x < a_stop; ++x)
    add_line(' ', a, x, out);
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after,
                         const std::string& old_label, const std::string& new_label,
                         size_t context) {
  if (before == after) return "";
  LineIds ids;
  Lines a = split_lines(before, &ids);
  Lines b = split_lines(after, &ids);
  std::vector<Change> changes = find_changes(a, b);
  std::string out = "--- " + old_label + "\n+++ " + new_label + "\n";
  for (size_t first = 0; first < changes.size();) {
    size_t last = first;
    while (last + 1 < changes.size() &&
           changes[last + 1].a_begin - changes[last].a_end <= 2 * context)
      ++last;
    add_hunk(a, b, changes, first, last, context, &out);
    first = last + 1;
  }
  return out;
}

}  // namespace trainjob
