#include "cluster/submit_plan.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cluster/submit.h"
#include "cluster/trainjob_status.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "model/vocabulary.h"
#include "pipeline/config_map_files.h"

namespace trainjob {
namespace {

/// The one TrainJob's name and namespace; throws KubeError for none or several.
void find_trainjob(const RenderResult& rendered, const std::string& name_space, SubmitPlan* plan) {
  int trainjobs = 0;
  for (const RenderedUnit& unit : rendered.units) {
    if (!unit.compiled) continue;
    ++trainjobs;
    plan->trainjob = unit.source->name();
    std::string own = unit.source->name_space();
    plan->name_space = own.empty() ? name_space : own;
  }
  if (trainjobs != 1)
    throw KubeError(
        "submit takes exactly one TrainJob (or PyTorchJob, TFJob, ...); the inputs hold " +
        std::to_string(trainjobs));
}

/// Every rendered object, in the plan's namespace and labelled as the TrainJob's: the other
/// input documents (a ConfigMap, a PVC) are deleted with it. Throws KubeError for an object
/// in another namespace.
void add_objects(const RenderResult& rendered, SubmitPlan* plan) {
  for (const RenderedUnit& unit : rendered.units) {
    for (Json object : unit.objects) {
      Json& metadata = object["metadata"];
      if (!metadata.contains("namespace")) metadata["namespace"] = plan->name_space;
      if (string_member(metadata, "namespace") != plan->name_space)
        throw KubeError(display_name(object) + " is in namespace " +
                        string_member(metadata, "namespace") + ", the TrainJob in " +
                        plan->name_space);
      metadata["labels"][kTrainJobNameLabel] = plan->trainjob;
      metadata["labels"][kManagedByLabel] = kManagedByValue;
      plan->objects.push_back(std::move(object));
    }
  }
}

}  // namespace

void mark_as_submitted(SubmitPlan* plan) {
  std::vector<std::string> kinds;
  for (const Json& object : plan->objects) {
    std::string kind = string_member(object, "apiVersion") + "/" + string_member(object, "kind");
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  std::string recorded;
  for (const std::string& kind : kinds)
    recorded += (recorded.empty() ? "" : ",") + kind;
  for (Json& object : plan->objects) {
    Json& metadata = object["metadata"];
    metadata["labels"][kTrainJobNameLabel] = plan->trainjob;
    metadata["labels"][kCreatedBySubmitLabel] = kCreatedBySubmitValue;
    metadata["annotations"][kSubmittedKindsAnnotation] = recorded;
  }
}

SubmitPlan plan_submit(const RenderResult& rendered, const std::vector<std::string>& from_files,
                       const std::string& name_space) {
  SubmitPlan plan;
  find_trainjob(rendered, name_space, &plan);
  add_objects(rendered, &plan);
  std::string error;
  if (!add_files_config_map(from_files, rendered, plan.name_space, &plan.objects, &error))
    throw KubeError(error);
  plan.kind = source_kind_of(plan.objects);
  plan.objects = order_for_apply(std::move(plan.objects));
  mark_as_submitted(&plan);
  return plan;
}

}  // namespace trainjob
