#include "krm/resource_list.h"

#include "krm/krm_annotations.h"
#include "load/field_path.h"
#include "output/yaml_writer.h"

namespace trainjob {

bool is_resource_list(const Document& document) {
  const std::string& api_version = document.api_version();
  return document.kind() == kResourceListKind &&
         api_version.compare(0, kResourceListGroup.size(), kResourceListGroup) == 0;
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

std::string format_resource_list(const std::string& api_version,
                                 const std::vector<const Json*>& items, const Json& results,
                                 bool json) {
  Json list = Json::object();
  list["apiVersion"] = api_version;
  list["kind"] = kResourceListKind;
  list["items"] = Json::array();
  for (const Json* item : items)
    list["items"].push_back(*item);
  if (!results.empty()) list["results"] = results;
  if (json) return list.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  std::string out;
  write_yaml(list, YamlStyle{}, &out);
  return out;
}

}  // namespace trainjob
