#include "convert/yaml_edit.h"

#include "load/field_path.h"
#include "output/yaml_writer.h"

namespace trainjob {
namespace {

/// Blank lines and lines holding only a comment travel with the entry that follows them.
bool is_blank_or_comment(std::string_view line) {
  size_t first = line.find_first_not_of(' ');
  return first == std::string_view::npos || line[first] == '#' || line[first] == '\r';
}

/// One entry of a block mapping: where its comments start, its key line, where it ends.
struct Entry {
  int start = 0;  ///< first line of the comments above the key (indices into the lines)
  int key = 0;    ///< the key's line
  int end = 0;    ///< one past the entry's last line
};

class Editor {
 public:
  Editor(const Document& document, const std::vector<std::string_view>& lines, int first_line)
      : document_(document), lines_(lines), first_line_(first_line) {}

  /// Writes the mapping `before` (at `path`, its entries on lines [begin, end)) as `after`.
  bool edit_mapping(const std::string& path, const Json& before, const Json& after, int begin,
                    int end, std::string* out) const {
    std::vector<Entry> entries;
    int indent = 0;
    if (!locate_entries(path, before, begin, end, &entries, &indent)) return false;
    int head_end = entries.empty() ? end : entries.front().start;
    int tail_begin = entries.empty() ? end : trailing_comments(entries.back().key, end);
    if (!entries.empty()) entries.back().end = tail_begin;
    copy_lines(begin, head_end, out);
    for (const auto& item : after.items()) {
      const std::string& key = item.key();
      auto found = before.find(key);
      if (found == before.end()) {
        *out += emit_entry(key, item.value(), indent);
        continue;
      }
      const Entry& entry = entries[static_cast<size_t>(std::distance(before.begin(), found))];
      if (*found == item.value()) {
        copy_lines(entry.start, entry.end, out);
        continue;
      }
      copy_lines(entry.start, entry.key, out);  // the comments above a changed entry stay
      std::string nested;
      if (is_block_mapping(field_child(path, key), *found, item.value(), entry) &&
          edit_mapping(field_child(path, key), *found, item.value(), entry.key + 1, entry.end,
                       &nested)) {
        copy_lines(entry.key, entry.key + 1, out);
        *out += nested;
      } else {
        *out += emit_entry(key, item.value(), indent);
      }
    }
    copy_lines(tail_begin, end, out);
    return true;
  }

  int index_of(const SourcePos& pos) const { return pos.line - first_line_; }

 private:
  /// Finds every key of `before` on its own line at one indentation inside [begin, end).
  bool locate_entries(const std::string& path, const Json& before, int begin, int end,
                      std::vector<Entry>* entries, int* indent) const {
    int previous = begin - 1;
    for (const auto& item : before.items()) {
      SourcePos pos = document_.source_map->key_pos(document_.value, field_child(path, item.key()));
      int line = index_of(pos);
      int column = pos.column - 1;
      if (pos.line <= 0 || line <= previous || line >= end || column < 0) return false;
      if (entries->empty()) *indent = column;
      std::string_view text = lines_[static_cast<size_t>(line)];
      bool alone = text.size() > static_cast<size_t>(column) &&
                   text.find_first_not_of(' ') == static_cast<size_t>(column);
      if (column != *indent || !alone || text.substr(static_cast<size_t>(column), 2) == "? ")
        return false;
      int start = line;
      while (start - 1 > previous && is_blank_or_comment(lines_[static_cast<size_t>(start - 1)]))
        --start;
      if (!entries->empty()) entries->back().end = start;
      entries->push_back({start, line, end});
      previous = line;
    }
    return true;
  }

  /// Where the comment and blank lines that end [key, end) begin: they are not the entry's.
  int trailing_comments(int key, int end) const {
    int tail = end;
    while (tail - 1 > key && is_blank_or_comment(lines_[static_cast<size_t>(tail - 1)]))
      --tail;
    return tail;
  }

  /// True when both values are mappings and the old one is written as a block below its key.
  bool is_block_mapping(const std::string& path, const Json& before, const Json& after,
                        const Entry& entry) const {
    if (!before.is_object() || !after.is_object() || before.empty() || after.empty())
      return false;  // an empty mapping is written `{}`
    SourcePos value = document_.source_map->value_pos(document_.value, path);
    return index_of(value) > entry.key;
  }

  void copy_lines(int begin, int end, std::string* out) const {
    for (int i = begin; i < end; ++i) {
      out->append(lines_[static_cast<size_t>(i)]);
      out->push_back('\n');
    }
  }

  const Document& document_;
  const std::vector<std::string_view>& lines_;
  int first_line_;
};

}  // namespace

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    if (newline == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, newline));
    text.remove_prefix(newline + 1);
  }
  return lines;
}

std::string emit_entry(const std::string& key, const Json& value, int indent) {
  Json entry = Json::object();
  entry[key] = value;
  std::string yaml;
  write_yaml(entry, &yaml);
  std::string out;
  std::string margin(static_cast<size_t>(indent), ' ');
  for (std::string_view line : split_lines(yaml)) {
    if (!line.empty()) out += margin;
    out.append(line);
    out.push_back('\n');
  }
  return out;
}

bool edit_yaml_document(const Document& before, const std::vector<std::string_view>& lines,
                        int first_line, const Json& after, std::string* out) {
  if (!before.source_map || !before.value.is_object() || !after.is_object()) return false;
  Editor editor(before, lines, first_line);
  std::string text;
  if (!editor.edit_mapping("", before.value, after, 0, static_cast<int>(lines.size()), &text))
    return false;
  *out += text;
  return true;
}

}  // namespace trainjob
