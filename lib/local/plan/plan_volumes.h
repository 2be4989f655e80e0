// The planning stage of `run --local` for a pod's volumes and its containers' mounts:
// where each volume lives on this machine, checked so that nothing the input names can
// lead a write outside the work directory. Internal to lib/local.
#ifndef TRAINJOB_LOCAL_PLAN_PLAN_VOLUMES_H_
#define TRAINJOB_LOCAL_PLAN_PLAN_VOLUMES_H_

#include <string>
#include <vector>

#include "local/plan/local_plan.h"

namespace trainjob {

/// The pod's `spec.volumes`: configMap and emptyDir volumes at `<work_dir>/<pod>/<name>`,
/// hostPath volumes at their path. False with `*error` naming the pod, volume and field.
bool plan_pod_volumes(const Json& spec, const ConfigMapIndex& config_maps,
                      const LocalOptions& options, LocalPod* pod, std::string* error);

/// The container's volumeMounts as mount path -> host path. False with `*error` naming
/// the volume when it cannot be provided or its subPath would leave it.
bool plan_container_mounts(const Json& container, const LocalPod& pod,
                           std::vector<LocalMount>* mounts, std::string* error);

/// Marks the volumes to be materialised read-only (every configMap volume, as the kubelet
/// mounts them; an emptyDir every mount of which is readOnly) and warns about readOnly
/// hostPath mounts, which are not enforced on this machine.
void plan_read_only(const Json& spec, LocalPod* pod, std::vector<std::string>* warnings);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_PLAN_VOLUMES_H_
