#include "model/step_place.h"

#include <exception>
#include <string>

#include "model/jobset_labels.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {}  // namespace

std::string annotation_of(const Json& object, const char* key) {
  return string_member(json_member(json_member(object, "metadata"), "annotations"), key);
}

StepPlace step_place(const Json& labels) {
  StepPlace place;
  place.step = string_member(labels, kReplicatedJobNameLabel);
  if (!place.step.empty()) {
    place.job_index = string_member(labels, kJobIndexKey);
    return place;
  }
  place.step = string_member(labels, kReplicaTypeLabel);
  // mpi-operator labels its pods by role (launcher, worker) and gives no replica type.
  if (place.step.empty() && string_member(labels, kOperatorNameLabel) == kMpiOperatorName)
    place.step = string_member(labels, kJobRoleLabel);
  if (place.step.empty()) return place;
  place.legacy = true;
  place.job_index = string_member(labels, kReplicaIndexLabel);
  return place;
}

StepPlace step_place_of(const Json& object) {
  return step_place(json_member(json_member(object, "metadata"), "labels"));
}

int label_index(const std::string& value) {
  try {
    return value.empty() ? 0 : std::stoi(value);
  } catch (const std::exception&) {
    return 0;
  }
}

std::string node_label(const StepPlace& place, int64_t completion_index) {
  if (place.legacy)
    return place.step + "-" + (place.job_index.empty() ? std::string("0") : place.job_index);
  return place.step +
         (place.job_index.empty() || place.job_index == "0" ? "" : "-" + place.job_index) + "-" +
         std::to_string(completion_index);
}

}  // namespace trainjob
