#include "load/yaml_loader.h"

#include <memory>
#include <stdexcept>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "load/field_path.h"

namespace trainjob {
namespace {

SourcePos pos_from_mark(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return {mark.line + 1, mark.column + 1};
}

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

class Converter {
 public:
  Converter(std::string_view text, PositionMap* positions) : text_(text), positions_(positions) {}

  Json convert(const YAML::Node& node, const std::string& path) {
    positions_->values.emplace(path, pos_from_mark(node.Mark()));
    switch (node.Type()) {
      case YAML::NodeType::Map:
        return convert_map(node, path);
      case YAML::NodeType::Sequence:
        return convert_sequence(node, path);
      case YAML::NodeType::Scalar:
        if (node.Tag() == "!" && !quote_is_closed(text_, node.Mark().pos)) {
          throw ConvertError(pos_from_mark(node.Mark()), path,
                             "invalid YAML: quoted string is never closed");
        }
        return convert_scalar(node);
      default:
        return nullptr;
    }
  }

 private:
  Json convert_map(const YAML::Node& node, const std::string& path) {
    Json object = Json::object();
    for (const auto& entry : node) {
      if (!entry.first.IsScalar()) {
        throw ConvertError(pos_from_mark(entry.first.Mark()), path,
                           "expected a plain key, found a " +
                               std::string(entry.first.IsMap() ? "mapping" : "sequence"));
      }
      const std::string& key = entry.first.Scalar();
      std::string child = field_child(path, key);
      if (object.contains(key)) {
        throw ConvertError(pos_from_mark(entry.first.Mark()), child,
                           "duplicate key \"" + key + "\"");
      }
      positions_->keys.emplace(child, pos_from_mark(entry.first.Mark()));
      object[key] = convert(entry.second, child);
    }
    return object;
  }

  Json convert_sequence(const YAML::Node& node, const std::string& path) {
    Json array = Json::array();
    size_t index = 0;
    for (const auto& item : node) array.push_back(convert(item, field_index(path, index++)));
    return array;
  }

  static Json convert_scalar(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    // "!" marks a quoted scalar; explicit string tags also keep the text as it is.
    if (tag == "!" || tag == "!!str" || tag == "tag:yaml.org,2002:str") return node.Scalar();
    return resolve_plain_scalar(node.Scalar());
  }

  std::string_view text_;
  PositionMap* positions_;
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
    Document item{document.file, document.index, items[i], document.positions,
                  field_index("items", i)};
    add_document(std::move(item), diagnostics, out);
  }
}

void report_parse_error(const std::string& file, const YAML::Exception& e, Diagnostics* d) {
  // yaml-cpp prefixes its message with the position, which we print ourselves.
  d->error(file, pos_from_mark(e.mark), "", "invalid YAML: " + e.msg);
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
    auto positions = std::make_shared<PositionMap>();
    try {
      Json value = Converter(text, positions.get()).convert(node, "");
      add_document({file, this_index, std::move(value), positions, ""}, diagnostics, &out);
    } catch (const ConvertError& e) {
      diagnostics->error(file, e.pos, e.field, e.what());
    }
  }
  return out;
}

}  // namespace trainjob
