// The label keys and values the Training Operator v1 puts on its pods and Services.
#ifndef TRAINJOB_LEGACY_OPERATOR_LABELS_H_
#define TRAINJOB_LEGACY_OPERATOR_LABELS_H_

namespace trainjob {

inline constexpr const char* kOperatorNameLabel = "training.kubeflow.org/operator-name";
inline constexpr const char* kLegacyJobNameLabel = "training.kubeflow.org/job-name";
inline constexpr const char* kReplicaTypeLabel = "training.kubeflow.org/replica-type";
inline constexpr const char* kReplicaIndexLabel = "training.kubeflow.org/replica-index";
inline constexpr const char* kJobRoleLabel = "training.kubeflow.org/job-role";
inline constexpr const char* kJobRoleMaster = "master";
/// Volcano's task name of a pod (the operator writes the lowercase replica type).
inline constexpr const char* kVolcanoTaskSpecAnnotation = "volcano.sh/task-spec";

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_OPERATOR_LABELS_H_
