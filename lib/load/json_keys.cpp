#include "load/json_keys.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace trainjob {

void sort_keys(Json* value) {
  if (value->is_array()) {
    for (Json& item : *value)
      sort_keys(&item);
    return;
  }
  if (!value->is_object()) return;
  // ordered_json keeps entries in a vector of pairs with const keys, so they cannot be
  // sorted in place: move them out, sort, and move them back.
  auto& entries = value->get_ref<Json::object_t&>();
  std::vector<std::pair<std::string, Json>> sorted;
  sorted.reserve(entries.size());
  for (auto& entry : entries)
    sorted.emplace_back(entry.first, std::move(entry.second));
  // std::string compares through char_traits<char>, i.e. as unsigned bytes.
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  entries.clear();
  using Entries = Json::object_t::Container;
  for (auto& [key, item] : sorted) {
    sort_keys(&item);
    static_cast<Entries&>(entries).emplace_back(std::move(key), std::move(item));
  }
}

}  // namespace trainjob
