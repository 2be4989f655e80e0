#include "pipeline/input_names.h"

#include <algorithm>
#include <map>

#include "k8s/names.h"
#include "legacy/legacy_kinds.h"
#include "model/field.h"
#include "model/runtime_registry.h"
#include "util/beneath.h"

namespace trainjob {
namespace {

constexpr size_t kMaxSubdomainLength = 253;
/// The most a file mode in a volume may be: rwx for all, no setuid, setgid or sticky bit.
constexpr int64_t kMaxFileMode = 0777;

enum class NameRule { kLabel1035, kLabel1123, kSubdomain, kPathSegment };

/// The API server's rule for the names of the kinds a TrainJob folder holds; any other
/// kind gets the rule every name must follow to be a path segment.
NameRule name_rule(const std::string& kind) {
  static const std::map<std::string, NameRule> kRules = {
      {"Service", NameRule::kLabel1035},
      {"Namespace", NameRule::kLabel1123},
      {"ConfigMap", NameRule::kSubdomain},
      {"Secret", NameRule::kSubdomain},
      {"Job", NameRule::kSubdomain},
      {"Pod", NameRule::kSubdomain},
      {"PodGroup", NameRule::kSubdomain},
      {"JobSet", NameRule::kSubdomain},
      {"PersistentVolumeClaim", NameRule::kSubdomain},
      {"ServiceAccount", NameRule::kSubdomain},
      {"ClusterTrainingRuntime", NameRule::kSubdomain},
      {"TrainingRuntime", NameRule::kSubdomain},
  };
  auto it = kRules.find(kind);
  return it == kRules.end() ? NameRule::kPathSegment : it->second;
}

bool is_path_segment(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of("/%") == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

bool follows(NameRule rule, std::string_view name) {
  switch (rule) {
    case NameRule::kLabel1035:
      return is_dns1035_label(name);
    case NameRule::kLabel1123:
      return is_dns1123_label(name);
    case NameRule::kSubdomain:
      return is_dns1123_subdomain(name);
    case NameRule::kPathSegment:
      return is_path_segment(name);
  }
  return false;
}

const char* describe(NameRule rule) {
  switch (rule) {
    case NameRule::kLabel1035:
      return "an RFC 1035 label (at most 63 lower-case letters, digits and '-', starting with a "
             "letter and ending with a letter or digit)";
    case NameRule::kLabel1123:
      return "an RFC 1123 label (at most 63 lower-case letters, digits and '-', starting and "
             "ending with a letter or digit)";
    case NameRule::kSubdomain:
      return "an RFC 1123 subdomain (at most 253 characters: lower-case letters, digits, '-' "
             "and '.', starting and ending with a letter or digit)";
    case NameRule::kPathSegment:
      return "a name without '/' or '%' that is not \".\" or \"..\"";
  }
  return "";
}

void check_name(const FieldReader& reader, const Field& field, NameRule rule) {
  if (!field) return;
  std::optional<std::string> name = reader.string(field);
  if (name && !follows(rule, *name)) reader.mismatch(field, describe(rule));
}

void check_metadata(const FieldReader& reader) {
  const Document& document = reader.document();
  Field kind = reader.root()["kind"];
  if (kind.value != nullptr && kind.value->is_string() && !is_kind_name(document.kind())) {
    reader.mismatch(kind, "a kind (a letter, then letters and digits)");
  }
  Field metadata = reader.root()["metadata"];
  if (!metadata || !reader.is_object(metadata)) return;
  check_name(reader, metadata["namespace"], NameRule::kLabel1123);
  // A TrainJob's (or legacy job's) name is the compiler's: it knows which names are derived
  // from it.
  if (!is_trainjob_document(document) &&
      find_legacy_kind(document.api_version(), document.kind()) == nullptr) {
    check_name(reader, metadata["name"], name_rule(document.kind()));
  }
}

/// The keys of a ConfigMap's or Secret's data maps become file names in volumes.
void check_data_keys(const FieldReader& reader) {
  const Document& document = reader.document();
  if (document.api_version() != "v1") return;
  std::vector<const char*> maps;
  if (document.kind() == "ConfigMap") maps = {"data", "binaryData"};
  if (document.kind() == "Secret") maps = {"data", "stringData"};
  for (const char* map : maps) {
    Field data = reader.root()[map];
    if (!data || !data.value->is_object()) continue;
    for (const auto& entry : data.value->items()) {
      if (is_config_map_key(entry.key())) continue;
      reader.key_error(data[entry.key()].path(),
                       "expected a key of letters, digits, '-', '_' and '.' (at most 253 "
                       "characters, not \".\" or \"..\")");
    }
  }
}

void check_mode(const FieldReader& reader, const Field& mode) {
  if (!mode) return;
  std::optional<int64_t> value = reader.integer(mode);
  if (value && (*value < 0 || *value > kMaxFileMode)) {
    reader.mismatch(mode, "a file mode from 0 to 0777 (511)");
  }
}

/// `items` of a configMap, secret or downwardAPI source: each path becomes a file
/// beneath the mount, so it must stay there.
void check_items(const FieldReader& reader, const Field& source) {
  if (!source || !source.value->is_object()) return;
  check_mode(reader, source["defaultMode"]);
  Field items = source["items"];
  if (!items || !items.value->is_array()) return;
  for (size_t i = 0; i < items.value->size(); ++i) {
    Field item = items.at(i);
    if (!item.value->is_object()) continue;
    check_mode(reader, item["mode"]);
    Field path = item["path"];
    std::optional<std::string> text = path ? reader.string(path) : std::nullopt;
    if (!text) continue;
    std::string problem = beneath_path_problem(*text);
    if (!problem.empty()) {
      reader.mismatch(path, "a relative path beneath the mount (" + problem + ")");
    }
  }
}

void check_volume(const FieldReader& reader, const Field& volume) {
  check_name(reader, volume["name"], NameRule::kLabel1123);
  for (const char* source : {"configMap", "secret", "downwardAPI"})
    check_items(reader, volume[source]);
  Field sources = volume["projected"]["sources"];
  if (!sources || !sources.value->is_array()) return;
  check_mode(reader, volume["projected"]["defaultMode"]);
  for (size_t i = 0; i < sources.value->size(); ++i) {
    for (const char* source : {"configMap", "secret", "downwardAPI"})
      check_items(reader, sources.at(i)[source]);
  }
}

bool is_volume_list(const Json& value) {
  return value.is_array() && !value.empty() && std::all_of(value.begin(), value.end(), [](auto& v) {
           return v.is_object() && v.contains("name");
         });
}

/// Every `volumes` list in the document, wherever a pod spec or an override holds one.
void check_volume_lists(const FieldReader& reader, const Field& field) {
  const Json& value = *field.value;
  if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i)
      check_volume_lists(reader, field.at(i));
    return;
  }
  if (!value.is_object()) return;
  for (const auto& entry : value.items()) {
    Field child = field[entry.key()];
    if (entry.key() == "volumes" && is_volume_list(entry.value())) {
      for (size_t i = 0; i < entry.value().size(); ++i)
        check_volume(reader, child.at(i));
    } else {
      check_volume_lists(reader, child);
    }
  }
}

}  // namespace

bool is_dns1123_subdomain(std::string_view name) {
  if (name.empty() || name.size() > kMaxSubdomainLength) return false;
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  // Its labels are RFC 1123 labels, except that only the whole is held to a length.
  for (size_t start = 0; start <= name.size();) {
    size_t dot = std::min(name.find('.', start), name.size());
    std::string_view label = name.substr(start, dot - start);
    if (label.empty() || !lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    if (!std::all_of(label.begin(), label.end(),
                     [&](char c) { return lower_alnum(c) || c == '-'; }))
      return false;
    start = dot + 1;
  }
  return true;
}

bool is_config_map_key(std::string_view key) {
  if (key.empty() || key.size() > kMaxSubdomainLength || key == "." || key == "..") return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  });
}

bool is_kind_name(std::string_view kind) {
  auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  return !kind.empty() && is_letter(kind.front()) &&
         std::all_of(kind.begin(), kind.end(),
                     [&](char c) { return is_letter(c) || (c >= '0' && c <= '9'); });
}

void check_input_names(const Document& document, Diagnostics* diagnostics) {
  if (!document.value.is_object()) return;
  FieldReader reader(document, diagnostics);
  check_metadata(reader);
  check_data_keys(reader);
  check_volume_lists(reader, reader.root());
}

}  // namespace trainjob
