// The KRM function wire format: a `config.kubernetes.io/v1` ResourceList holding the
// resources (`items`), the function's configuration (`functionConfig`) and, on the way
// out, its findings (`results`).
#ifndef TRAINJOB_KRM_RESOURCE_LIST_H_
#define TRAINJOB_KRM_RESOURCE_LIST_H_

#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"

namespace trainjob {

inline constexpr const char* kResourceListKind = "ResourceList";

/// True when `document` is a ResourceList of any version.
bool is_resource_list(const Document& document);

/// True when `text` is JSON rather than YAML (it starts with `{`): the output follows.
bool looks_like_json(std::string_view text);

/// The name diagnostics give the item at `position` of a list: `<path>[<index>]` from its
/// source annotations (`jobs/a.yaml[0]`), or `items[<position>]` when it has none.
std::string item_label(const Json& item, size_t position);

/// Each item of `list` as a document of its own, named by item_label, with no positions
/// (the tools give none that lead back to the user's files). `items` that is not a list,
/// and items that are not mappings, are errors located in `list`.
std::vector<Document> resource_list_items(const Document& list, Diagnostics* diagnostics);

/// The text of each item of `list` as `text` (the input it was read from) writes it: the
/// whole `- ` entry of the block sequence, comments included. Empty when the items are not
/// written one entry per line with the dash at column 1, as kpt writes them.
std::vector<std::string_view> item_texts(const Document& list, std::string_view text);

/// One item of an output list: its value, and the text to copy instead of writing the
/// value anew when it passes through unchanged (kpt keeps the quoting and the flow style
/// of what it reads, so a resource the function did not touch comes back as it was).
struct OutputItem {
  const Json* value = nullptr;
  std::string_view text;
};

/// A ResourceList of the given apiVersion holding `items`, and `results` when there are
/// any: YAML, or JSON (indented by 2, the items' texts unused) when `json`.
std::string format_resource_list(const std::string& api_version,
                                 const std::vector<OutputItem>& items, const Json& results,
                                 bool json);

}  // namespace trainjob

#endif  // TRAINJOB_KRM_RESOURCE_LIST_H_
