#include "krm/resource_list.h"

#include "krm/krm_annotations.h"
#include "load/field_path.h"
#include "model/vocabulary.h"
#include "output/yaml_writer.h"

namespace trainjob {

bool is_resource_list(const Document& document) {
  const std::string& api_version = document.api_version();
  // Any version of the group (kpt sends v1; v1alpha1 is older).
  return document.kind() == kResourceListKind && api_version.rfind(kKrmConfigPrefix, 0) == 0;
}

bool looks_like_json(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

std::string item_label(const Json& item, size_t position) {
  ItemSource source = item_source(item);
  if (source.path.empty()) return field_index("items", position);
  return source.path + "[" + (source.index >= 0 ? std::to_string(source.index) : "?") + "]";
}

std::vector<Document> resource_list_items(const Document& list, Diagnostics* diagnostics) {
  std::vector<Document> documents;
  const Json& items = json_member(list.value, "items");
  if (items.is_null()) return documents;  // an empty list may leave the field out
  if (!items.is_array()) {
    diagnostics->error(list.file, list.pos_of("items"), "items", "expected a list of resources");
    return documents;
  }
  documents.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_object()) {
      std::string path = field_index("items", i);
      diagnostics->error(list.file, list.pos_of(path), path, "expected a resource (a mapping)");
      continue;
    }
    Document document;
    document.file = item_label(items[i], i);
    document.index = static_cast<int>(i);
    document.value = items[i];
    documents.push_back(std::move(document));
  }
  return documents;
}

namespace {

/// The offset of the start of each line of `text`, from line 1 at [1].
std::vector<size_t> line_starts(std::string_view text) {
  std::vector<size_t> starts = {0, 0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(i + 1);
  }
  return starts;
}

/// The line of the `- ` that opens the entry whose value starts at `line`: that line, or
/// one above it (below `floor`) when only a comment follows the dash. 0 when there is none.
int entry_line(std::string_view text, const std::vector<size_t>& starts, int line, int floor) {
  for (int at = line; at > floor; --at) {
    std::string_view rest = text.substr(starts[at]);
    if (rest.substr(0, 2) == "- " || rest.substr(0, 2) == "-\n") return at;
    size_t first = rest.find_first_not_of(' ');
    bool comment_or_blank =
        first == std::string_view::npos || rest[first] == '#' || rest[first] == '\n';
    if (at != line && !comment_or_blank) return 0;
  }
  return 0;
}

/// The first line after `line` where a top-level key of `list` is written: where the text
/// of the last item ends. 0 when there is none.
int next_key_line(const Document& list, int line) {
  int next = 0;
  for (const auto& entry : list.value.items()) {
    int at = list.key_pos_of(entry.key()).line;
    if (at > line && (next == 0 || at < next)) next = at;
  }
  return next;
}

}  // namespace

std::vector<std::string_view> item_texts(const Document& list, std::string_view text) {
  const Json& items = json_member(list.value, "items");
  if (!items.is_array() || items.empty()) return {};
  std::vector<size_t> starts = line_starts(text);
  std::vector<int> lines;
  for (size_t i = 0; i < items.size(); ++i) {
    int value_line = list.pos_of(field_index("items", i)).line;
    if (value_line <= 0 || static_cast<size_t>(value_line) >= starts.size()) return {};
    int floor = lines.empty() ? list.key_pos_of("items").line : lines.back();
    // No dash at column 1: the entries are indented, and would not mix with ours.
    int line = entry_line(text, starts, value_line, floor);
    if (line == 0) return {};
    lines.push_back(line);
  }
  int end_line = next_key_line(list, lines.back());
  lines.push_back(end_line);
  std::vector<std::string_view> out;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    size_t begin = starts[lines[i]];
    size_t end = lines[i + 1] > 0 && static_cast<size_t>(lines[i + 1]) < starts.size()
                     ? starts[lines[i + 1]]
                     : text.size();
    out.push_back(text.substr(begin, end - begin));
  }
  return out;
}

std::string format_resource_list(const std::string& api_version,
                                 const std::vector<OutputItem>& items, const Json& results,
                                 bool json) {
  if (json) {
    Json list = {
        {"apiVersion", api_version}, {"kind", kResourceListKind}, {"items", Json::array()}};
    for (const OutputItem& item : items)
      list["items"].push_back(*item.value);
    if (!results.empty()) list["results"] = results;
    return list.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  }
  std::string out;
  write_yaml(Json{{"apiVersion", api_version}, {"kind", kResourceListKind}}, &out);
  out += items.empty() ? "items: []\n" : "items:\n";
  for (const OutputItem& item : items) {
    if (item.text.empty()) {
      write_yaml(Json::array({*item.value}), &out);
      continue;
    }
    out += item.text;
    if (out.back() != '\n') out += '\n';
  }
  if (!results.empty()) write_yaml(Json{{"results", results}}, &out);
  return out;
}

}  // namespace trainjob
