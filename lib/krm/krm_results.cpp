#include "krm/krm_results.h"

#include "krm/krm_annotations.h"

namespace trainjob {
namespace {

/// The identity kpt prints a result under; only the fields the item has.
Json resource_ref(const Json& item) {
  Json ref = Json::object();
  const Json& metadata = json_member(item, "metadata");
  for (const char* key : {"apiVersion", "kind"}) {
    if (!string_member_ref(item, key).empty()) ref[key] = string_member_ref(item, key);
  }
  for (const char* key : {"name", "namespace"}) {
    if (!string_member_ref(metadata, key).empty()) ref[key] = string_member_ref(metadata, key);
  }
  return ref;
}

/// `path` less `prefix` and the dot after it.
std::string relative_path(const std::string& path, const std::string& prefix) {
  if (prefix.empty() || path.compare(0, prefix.size(), prefix) != 0) return path;
  size_t skip = prefix.size();
  if (skip < path.size() && path[skip] == '.') ++skip;
  return path.substr(skip);
}

Json one_result(const Diagnostic& diagnostic, const ResultSubject* subject) {
  Json result = Json::object();
  // A finding about an item is placed by resourceRef, field and file; any other (an
  // embedded runtime, the input text itself) says where it is in the message.
  std::string message = diagnostic.message;
  if (subject == nullptr && diagnostic.pos.line > 0) {
    message = diagnostic.file + ":" + std::to_string(diagnostic.pos.line) + ":" +
              std::to_string(diagnostic.pos.column) + ": " + message;
  } else if (subject == nullptr && !diagnostic.file.empty()) {
    message = diagnostic.file + ": " + message;
  }
  result["message"] = message;
  result["severity"] = diagnostic.severity == Severity::kError ? "error" : "warning";
  if (subject != nullptr) {
    Json ref = resource_ref(*subject->item);
    if (!ref.empty()) result["resourceRef"] = ref;
  }
  std::string field = relative_path(diagnostic.path, subject ? subject->path_prefix : "");
  if (!field.empty()) result["field"] = {{"path", field}};
  if (subject != nullptr) {
    ItemSource source = item_source(*subject->item);
    Json file = Json::object();
    if (!source.path.empty()) file["path"] = source.path;
    if (source.index >= 0) file["index"] = source.index;
    if (!file.empty()) result["file"] = file;
  }
  return result;
}

}  // namespace

Json krm_results(const std::vector<Diagnostic>& diagnostics, const ResultSubjects& subjects) {
  Json results = Json::array();
  for (const Diagnostic& diagnostic : diagnostics) {
    auto it = subjects.find(diagnostic.file);
    results.push_back(one_result(diagnostic, it != subjects.end() ? &it->second : nullptr));
  }
  return results;
}

}  // namespace trainjob
