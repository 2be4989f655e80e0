#include "pipeline/kueue_topology.h"

#include <regex>
#include <vector>

#include "model/field.h"
#include "model/vocabulary.h"

namespace trainjob {

bool kueue_reads_topology_at(const std::string& path) {
  static const std::regex pod_template(
      R"((^|\.)template\.spec\.template\.metadata\.annotations$)"
      R"(|ReplicaSpecs\.[^.]+\.template\.metadata\.annotations$)"
      R"(|^spec\.podTemplateOverrides\[[0-9]+\]\.metadata\.annotations$)");
  return std::regex_search(path, pod_template);
}

std::string kueue_topology_fix(const std::string& kind, const std::string& path) {
  const std::string job_level = "template.metadata.annotations";
  bool replicated_job =
      path.size() > job_level.size() && path != "spec." + job_level &&
      path.compare(path.size() - job_level.size(), job_level.size(), job_level) == 0;
  if (replicated_job)  // a Job's own metadata: its pod template is one level down
    return path.substr(0, path.size() - job_level.size()) + "template.spec." + job_level;
  if (kind == "TrainJob")
    return "the pod templates Kueue should place: the runtime's "
           "spec.template.spec.replicatedJobs[*].template.spec.template.metadata.annotations, "
           "or this TrainJob's spec.podTemplateOverrides[*].metadata.annotations (v2.0/v2.1) "
           "or its spec.runtimePatches (v2.2+)";
  if (kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime")
    return "spec.template.spec.replicatedJobs[*].template.spec.template.metadata.annotations, "
           "on each replicated job Kueue should place";
  return "the pod template of each replica type Kueue should place "
         "(spec.*ReplicaSpecs.<Type>.template.metadata.annotations)";
}

bool is_label_key(std::string_view key) {
  static const std::regex name(R"([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)");
  static const std::regex prefix(
      R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)");
  size_t slash = key.find('/');
  std::string_view local = slash == std::string_view::npos ? key : key.substr(slash + 1);
  if (local.empty() || local.size() > 63 || !std::regex_match(std::string(local), name))
    return false;
  if (slash == std::string_view::npos) return true;
  std::string_view domain = key.substr(0, slash);
  return !domain.empty() && domain.size() <= 253 && std::regex_match(std::string(domain), prefix);
}

namespace {

bool is_topology_key(const std::string& key) {
  return key.rfind(kKueueTasPrefix, 0) == 0;
}

/// The annotation's value as Kueue reads it (a string), or null when absent or no string.
const Json* annotation(const Json& annotations, const char* key) {
  auto it = annotations.find(key);
  return it != annotations.end() && it->is_string() ? &*it : nullptr;
}

bool is_bool_text(const std::string& text) {
  for (const char* word :
       {"1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"})
    if (text == word) return true;
  return false;
}

bool is_positive_int(const std::string& text) {
  if (text.empty() || text.size() > 10) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  long long value = std::stoll(text);
  return value >= 1 && value <= 2147483647;
}

void check_levels(const FieldReader& reader, const Field& at, const Json& annotations) {
  for (const char* key : {kKueueTasRequired, kKueueTasPreferred, kKueueTasSliceRequired}) {
    const Json* value = annotation(annotations, key);
    if (value != nullptr && !is_label_key(value->get<std::string>()))
      reader.error(at[key].path(),
                   "expected a node label key (the topology level, such as "
                   "cloud.provider.com/topology-rack), found \"" +
                       value->get<std::string>() + "\"");
  }
  const Json* unconstrained = annotation(annotations, kKueueTasUnconstrained);
  if (unconstrained != nullptr && !is_bool_text(unconstrained->get<std::string>()))
    reader.error(at[kKueueTasUnconstrained].path(), "expected \"true\" or \"false\", found \"" +
                                                        unconstrained->get<std::string>() + "\"");
}

void check_combinations(const FieldReader& reader, const Field& at, const Json& annotations) {
  bool required = annotation(annotations, kKueueTasRequired) != nullptr;
  bool preferred = annotation(annotations, kKueueTasPreferred) != nullptr;
  bool unconstrained = annotation(annotations, kKueueTasUnconstrained) != nullptr;
  if (int(required) + int(preferred) + int(unconstrained) > 1)
    reader.error(at.path(), std::string("expected at most one of ") + kKueueTasRequired + ", " +
                                kKueueTasPreferred + " and " + kKueueTasUnconstrained +
                                " on one pod template: Kueue's webhook refuses the Job");
  const Json* size = annotation(annotations, kKueueTasSliceSize);
  bool slice = annotation(annotations, kKueueTasSliceRequired) != nullptr;
  if (size != nullptr && !is_positive_int(size->get<std::string>()))
    reader.error(at[kKueueTasSliceSize].path(),
                 "expected a whole number of pods of at least 1, found \"" +
                     size->get<std::string>() + "\"");
  if (slice && size == nullptr)
    reader.error(at.path(), std::string("expected ") + kKueueTasSliceSize + " beside " +
                                kKueueTasSliceRequired + ": it says how many pods a slice has");
  if (!slice && size != nullptr)
    reader.error(at[kKueueTasSliceSize].path(),
                 std::string("expected it only beside ") + kKueueTasSliceRequired);
  const Json* group = annotation(annotations, kKueueTasGroupName);
  if (group != nullptr && !group->get<std::string>().empty() &&
      group->get<std::string>().find_first_not_of("0123456789") == std::string::npos)
    reader.error(at[kKueueTasGroupName].path(),
                 "expected a name, found the number " + group->get<std::string>());
  if (group != nullptr && (!(required || preferred) || slice || size != nullptr))
    reader.error(at[kKueueTasGroupName].path(),
                 std::string("expected it beside ") + kKueueTasRequired + " or " +
                     kKueueTasPreferred + ", and without the slice annotations");
}

void check_annotations(const FieldReader& reader, const Field& at, const Json& annotations) {
  std::vector<std::string> found;
  for (const auto& entry : annotations.items())
    if (is_topology_key(entry.key())) found.push_back(entry.key());
  if (found.empty()) return;
  std::string path = at.path();
  if (!kueue_reads_topology_at(path)) {
    reader.warning(at[found[0]].path(),
                   "Kueue reads its topology annotations on pod templates only; here it "
                   "ignores " +
                       found[0] + " (and places the pods anywhere): move it to " +
                       kueue_topology_fix(reader.document().kind(), path));
    return;
  }
  check_levels(reader, at, annotations);
  check_combinations(reader, at, annotations);
}

void walk(const FieldReader& reader, const Field& at, const Json& value, int depth) {
  if (depth > 40) return;
  if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i)
      walk(reader, at.at(i), value[i], depth + 1);
    return;
  }
  if (!value.is_object()) return;
  for (const auto& entry : value.items()) {
    Field child = at[entry.key()];
    if (entry.key() == "annotations" && entry.value().is_object())
      check_annotations(reader, child, entry.value());
    else
      walk(reader, child, entry.value(), depth + 1);
  }
}

}  // namespace

void check_kueue_topology(const Document& document, Diagnostics* diagnostics) {
  if (!document.value.is_object()) return;
  FieldReader reader(document, diagnostics);
  walk(reader, reader.root(), document.value, 0);
}

}  // namespace trainjob
