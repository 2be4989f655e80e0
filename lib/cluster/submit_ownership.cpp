#include "cluster/submit_ownership.h"

#include <algorithm>

#include "kube/objects.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// Metadata the API server writes by itself: an apply never sets it.
bool server_kept(const std::string& path) {
  static const char* const kept[] = {"metadata.managedFields", "metadata.resourceVersion",
                                     "metadata.generation",    "metadata.creationTimestamp",
                                     "metadata.uid",           "status"};
  return std::any_of(std::begin(kept), std::end(kept),
                     [&](const char* field) { return path == field; });
}

void collect_changes(const Json& live, const Json& applied, const std::string& path,
                     std::vector<std::string>* out) {
  if (server_kept(path)) return;
  if (!live.is_object() || !applied.is_object()) {
    if (live != applied) out->push_back(path);
    return;
  }
  auto add = [&](const std::string& key, const Json& a, const Json& b) {
    collect_changes(a, b, path.empty() ? key : path + "." + key, out);
  };
  for (const auto& [key, value] : live.items())
    add(key, value, applied.contains(key) ? applied.at(key) : Json());
  for (const auto& [key, value] : applied.items())
    if (!live.contains(key)) add(key, Json(), value);
}

}  // namespace

bool created_by_submit_for(const Json& live, const Json& object, const std::string& trainjob) {
  if (label_of(live, kCreatedBySubmitLabel) != kCreatedBySubmitValue) return false;
  std::string sweep = label_of(object, kOptimizationJobNameLabel);
  return label_of(live, kTrainJobNameLabel) == trainjob ||
         (!sweep.empty() && label_of(live, kOptimizationJobNameLabel) == sweep);
}

Json with_marks_of(Json object, const Json& live) {
  const Json& live_metadata = member_or_empty(live, "metadata");
  Json& metadata = object["metadata"];
  for (const char* key : {"labels", "annotations"}) {
    const Json& kept = member_or_empty(live_metadata, key);
    for (const char* mark : {kTrainJobNameLabel, kManagedByLabel, kCreatedBySubmitLabel,
                             kOptimizationJobNameLabel, kSubmittedKindsAnnotation}) {
      if (kept.contains(mark))
        metadata[key][mark] = kept[mark];
      else if (metadata.contains(key) && metadata[key].is_object())
        metadata[key].erase(mark);
    }
    if (metadata.contains(key) && metadata[key].empty()) metadata.erase(key);
  }
  return object;
}

std::vector<std::string> changed_fields(const Json& live, const Json& applied) {
  std::vector<std::string> out;
  collect_changes(live, applied, "", &out);
  return out;
}

std::string not_created_by_submit(const Json& live) {
  if (label_of(live, kCreatedBySubmitLabel) != kCreatedBySubmitValue)
    return "was not created by submit";
  return "was created by submit for TrainJob " + label_of(live, kTrainJobNameLabel);
}

std::optional<ForeignObject> check_foreign(KubeClient* client, const Json& object,
                                           const std::string& name_space,
                                           const std::string& trainjob, const Json& live,
                                           ApplyResult* result) {
  if (created_by_submit_for(live, object, trainjob)) return std::nullopt;
  ForeignObject foreign{not_created_by_submit(live), {}, live};
  *result = apply_object(client, with_marks_of(object, live), name_space, /*dry_run=*/true,
                         /*force=*/true);
  if (result->ok) foreign.fields = changed_fields(live, result->object);
  return foreign;
}

void refuse_unless_forced(const ForeignObject& foreign, bool force_conflicts, ApplyResult* result) {
  if (!result->ok) {
    // A Job's immutable fields, say: no flag of ours changes that (nor --replace, which
    // deletes only what submit created).
    result->immutable = false;
    result->error = "it exists and " + foreign.why +
                    ", and the server refuses the change submit would make: " + result->error;
  } else if (!foreign.fields.empty() && !force_conflicts) {
    std::string fields;
    for (const std::string& field : foreign.fields)
      fields += (fields.empty() ? "" : ", ") + field;
    result->ok = false;
    result->error = "it exists and " + foreign.why + ", and submitting would change " + fields +
                    ": nothing was applied; pass --force-conflicts to change it all the same "
                    "(delete still leaves it)";
  }
}

}  // namespace trainjob
