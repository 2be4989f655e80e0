#include "load/yaml_loader.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <utility>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "load/field_path.h"
#include "load/yaml_source_map.h"

namespace trainjob {
namespace {

/// Thrown inside the converter and turned into one diagnostic per document.
struct ConvertError : std::runtime_error {
  ConvertError(SourcePos at, std::string path, const std::string& message)
      : std::runtime_error(message), pos(at), field(std::move(path)) {}
  SourcePos pos;
  std::string field;
};

/// yaml-cpp reads a quoted scalar that never closes up to the end of the input without
/// complaint; find its closing quote ourselves.
bool quote_is_closed(std::string_view text, size_t start) {
  if (start >= text.size()) return true;
  char quote = text[start];
  if (quote != '"' && quote != '\'') return true;  // the mark is not on the quote: trust it
  for (size_t i = start + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped quote inside single quotes
      } else {
        return true;
      }
    }
  }
  return false;
}

/// yaml-cpp nodes -> JSON. The field path is kept as a stack of segments and only
/// spelled out when a message needs it.
class Converter {
 public:
  explicit Converter(std::string_view text) : text_(text) {}

  Json convert(const YAML::Node& node) {
    switch (node.Type()) {
      case YAML::NodeType::Map:
        return convert_map(node);
      case YAML::NodeType::Sequence:
        return convert_sequence(node);
      case YAML::NodeType::Scalar:
        if (node.Tag() == "!" && !quote_is_closed(text_, node.Mark().pos)) {
          fail(node.Mark(), "invalid YAML: quoted string is never closed");
        }
        return convert_scalar(node);
      default:
        return nullptr;
    }
  }

 private:
  using Entries = Json::object_t::Container;

  /// ordered_json finds keys by linear search, fine for the few keys of most mappings; a
  /// hash set takes over for large ones (a big ConfigMap) so loading stays linear.
  static bool is_duplicate(const Entries& entries, const std::string& key,
                           std::unordered_set<std::string>* seen) {
    constexpr size_t kLinearSearchLimit = 16;
    if (entries.size() < kLinearSearchLimit) {
      return std::any_of(entries.begin(), entries.end(),
                         [&](const auto& entry) { return entry.first == key; });
    }
    if (seen->empty()) {
      for (const auto& entry : entries) seen->insert(entry.first);
    }
    return !seen->insert(key).second;
  }

  struct Segment {
    std::string_view key;
    size_t index;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const {
    std::string path;
    for (const Segment& segment : path_) {
      path = segment.key.data() != nullptr ? field_child(path, segment.key)
                                           : field_index(path, segment.index);
    }
    throw ConvertError(pos_from_mark(mark), path, message);
  }

  Json convert_map(const YAML::Node& node) {
    Json object = Json::object();
    auto& entries = static_cast<Entries&>(object.get_ref<Json::object_t&>());
    std::unordered_set<std::string> seen;
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) {
        fail(entry.first.Mark(), "expected a plain key, found a " +
                                     std::string(entry.first.IsMap() ? "mapping" : "sequence"));
      }
      const std::string& key = entry.first.Scalar();
      path_.push_back({key, 0});
      if (is_duplicate(entries, key, &seen)) {
        fail(entry.first.Mark(), "duplicate key \"" + key + "\"");
      }
      entries.emplace_back(key, convert(entry.second));
      path_.pop_back();
    }
    return object;
  }

  Json convert_sequence(const YAML::Node& node) {
    Json array = Json::array();
    size_t index = 0;
    for (const auto& item : node) {
      path_.push_back({{}, index++});
      array.push_back(convert(item));
      path_.pop_back();
    }
    return array;
  }

  static Json convert_scalar(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    // "!" marks a quoted scalar; explicit string tags also keep the text as it is.
    if (tag == "!" || tag == "!!str" || tag == "tag:yaml.org,2002:str") return node.Scalar();
    return resolve_plain_scalar(node.Scalar());
  }

  std::string_view text_;
  std::vector<Segment> path_;
};

bool is_list(const Json& value) {
  return value.is_object() && value.value("kind", "") == "List" && value.contains("items") &&
         value["items"].is_array();
}

void add_document(Document document, Diagnostics* diagnostics, std::vector<Document>* out) {
  if (!document.value.is_object()) {
    diagnostics->error(document.file, document.pos_of(""), "",
                       "expected a Kubernetes object (a mapping with apiVersion and kind)");
    return;
  }
  if (!is_list(document.value)) {
    out->push_back(std::move(document));
    return;
  }
  // kubectl flattens `kind: List`; each item keeps its positions in the parent's map.
  const Json& items = document.value["items"];
  for (size_t i = 0; i < items.size(); ++i) {
    Document item{document.file, document.index, items[i], document.source_map,
                  field_index("items", i)};
    add_document(std::move(item), diagnostics, out);
  }
}

void report_parse_error(const std::string& file, const YAML::Exception& e, Diagnostics* d) {
  // yaml-cpp prefixes its message with the position, which we print ourselves.
  std::string message = "invalid YAML: " + e.msg;
  if (const auto* deep = dynamic_cast<const YAML::DeepRecursion*>(&e)) {
    message = "invalid YAML: nested more than " + std::to_string(deep->depth() - 1) +
              " levels deep";
  }
  d->error(file, pos_from_mark(e.mark), "", message);
}

}  // namespace

std::vector<Document> load_documents(const std::string& file, std::string_view text,
                                     Diagnostics* diagnostics) {
  std::vector<Document> out;
  std::vector<YAML::Node> nodes;
  try {
    nodes = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception& e) {
    report_parse_error(file, e, diagnostics);
    return out;
  }
  int index = 0;
  for (const YAML::Node& node : nodes) {
    int this_index = index++;
    if (node.IsNull()) continue;  // `---` with nothing after it, as kubectl skips it
    try {
      Json value = Converter(text).convert(node);
      add_document({file, this_index, std::move(value), std::make_shared<YamlSourceMap>(node), ""},
                   diagnostics, &out);
    } catch (const ConvertError& e) {
      diagnostics->error(file, e.pos, e.field, e.what());
    }
  }
  return out;
}

}  // namespace trainjob
