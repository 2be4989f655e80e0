#include "cluster/submit_plan.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/submit.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "model/vocabulary.h"
#include "pipeline/config_map_files.h"
#include "pipeline/render_pipeline.h"
#include "status/job_stages.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

int apply_rank(const Json& object) {
  std::string kind = string_member(object, "kind");
  // Claims before the Jobs whose pods mount them (volumeClaimPolicies); a ServiceAccount
  // and its RBAC (MPIJob v1's launcher) before the pods that run as it.
  if (kind == "ConfigMap" || kind == "Secret" || kind == "PersistentVolumeClaim" ||
      kind == "ServiceAccount" || kind == "Role" || kind == "RoleBinding")
    return 0;
  if (kind == "Service") return 1;
  if (kind == "Workload" || kind == "PodGroup") return 2;  // a Workload before its PodGroups
  if (kind == "Job") return is_initializer_job(object) ? 3 : depends_on_of(object).empty() ? 4 : 5;
  return 6;
}

/// `file:line:col` of `path` in `document`.
std::string plan_where(const Document& document, std::string_view path) {
  SourcePos pos = document.pos_of(path);
  return document.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

/// The TrainJob whose objects `object` is, by its label.
std::string trainjob_label_of(const Json& object) {
  return string_member(json_member(json_member(object, "metadata"), "labels"), kTrainJobNameLabel);
}

/// The job of `unit` and the namespace it goes to.
SubmitPlan start_plan(const RenderedUnit& unit, const std::string& name_space) {
  SubmitPlan plan;
  plan.trainjob = unit.source->name();
  if (unit.source->kind() == kOptimizationJobKind && !unit.objects.empty())
    plan.trainjob = trainjob_label_of(unit.objects.front());
  std::string own = unit.source->name_space();
  plan.name_space = own.empty() ? name_space : own;
  return plan;
}

/// Every object of `unit`, in the plan's namespace and labelled as the TrainJob's: the other
/// input documents (a ConfigMap, a PVC) are deleted with it. Throws KubeError for an object
/// in another namespace.
void add_objects(const RenderedUnit& unit, SubmitPlan* plan) {
  for (Json object : unit.objects) {
    Json& metadata = object["metadata"];
    if (!metadata.contains("namespace")) metadata["namespace"] = plan->name_space;
    if (string_member(metadata, "namespace") != plan->name_space)
      throw KubeError(plan_where(*unit.source, "metadata.namespace") + ": " + display_name(object) +
                      " is in namespace " + string_member(metadata, "namespace") +
                      ", the TrainJob " + plan->trainjob + " in " + plan->name_space);
    metadata["labels"][kTrainJobNameLabel] = plan->trainjob;
    metadata["labels"][kManagedByLabel] = kManagedByValue;
    plan->objects.push_back(std::move(object));
  }
}

/// The job a document that is no job goes with: the next job in its file (init writes the
/// ConfigMap before its TrainJob), else the last one before it there, else the only job of
/// all the inputs. Throws KubeError when that leaves a choice.
size_t owner_of(const std::vector<const RenderedUnit*>& jobs, const RenderedUnit& unit) {
  std::optional<size_t> before;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (jobs[i]->source->file != unit.source->file) continue;
    if (jobs[i]->source->index > unit.source->index) return i;
    before = i;
  }
  if (before) return *before;
  if (jobs.size() == 1) return 0;
  throw KubeError(plan_where(*unit.source, "metadata.name") + ": " + unit.source->kind() + " " +
                  unit.source->name() + " is in a file of no TrainJob, and the inputs hold " +
                  std::to_string(jobs.size()) +
                  " jobs: put it in the file of the TrainJob it belongs to");
}

/// The jobs among `rendered`, each with the documents that go with it.
std::vector<std::vector<const RenderedUnit*>> group_by_job(const RenderResult& rendered) {
  std::vector<const RenderedUnit*> jobs;
  for (const RenderedUnit& unit : rendered.units)
    if (unit.compiled) jobs.push_back(&unit);
  if (jobs.empty()) {
    std::string why = has_runtime_document(rendered.documents)
                          ? "; only runtimes, and " + std::string(kRuntimesOnlyHint)
                          : "";
    throw KubeError("the inputs hold no TrainJob (nor PyTorchJob, TFJob, ...) to submit" + why);
  }
  std::vector<std::vector<const RenderedUnit*>> groups(jobs.size());
  for (const RenderedUnit& unit : rendered.units)
    groups[unit.compiled
               ? static_cast<size_t>(std::find(jobs.begin(), jobs.end(), &unit) - jobs.begin())
               : owner_of(jobs, unit)]
        .push_back(&unit);
  return groups;
}

/// The units a job's unit applies as: itself, or for an OptimizationJob one per trial, each
/// with the objects of that trial's TrainJob (named by their label).
std::vector<RenderedUnit> trial_units(const RenderedUnit& unit) {
  if (unit.source->kind() != kOptimizationJobKind) return {unit};
  std::vector<RenderedUnit> trials;
  for (const Json& object : unit.objects) {
    std::string trial = trainjob_label_of(object);
    auto same = [&](const RenderedUnit& t) {
      return trainjob_label_of(t.objects.front()) == trial;
    };
    auto it = std::find_if(trials.begin(), trials.end(), same);
    if (it == trials.end()) it = trials.insert(trials.end(), RenderedUnit{unit.source, true, {}});
    it->objects.push_back(object);
  }
  return trials;
}

}  // namespace

std::vector<Json> order_for_apply(std::vector<Json> objects) {
  std::stable_sort(objects.begin(), objects.end(),
                   [](const Json& a, const Json& b) { return apply_rank(a) < apply_rank(b); });
  return objects;
}

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

std::vector<SubmitPlan> plan_submit(const RenderResult& rendered,
                                    const std::vector<std::string>& from_files,
                                    const std::string& name_space) {
  std::vector<SubmitPlan> plans;
  for (const std::vector<const RenderedUnit*>& group : group_by_job(rendered)) {
    auto job = std::find_if(group.begin(), group.end(),
                            [](const RenderedUnit* unit) { return unit->compiled; });
    // The documents that go with an OptimizationJob (a ConfigMap) go with each trial.
    for (const RenderedUnit& trial : trial_units(**job)) {
      SubmitPlan plan = start_plan(trial, name_space);
      for (const RenderedUnit* unit : group) {
        size_t before = plan.objects.size();
        add_objects(unit == *job ? trial : *unit, &plan);
        // A sweep's own documents are applied with each trial: they are the sweep's, so
        // that the next trial's submit finds them its own (submit_ownership.h).
        if (unit != *job && (*job)->source->kind() == kOptimizationJobKind)
          for (size_t i = before; i < plan.objects.size(); ++i)
            plan.objects[i]["metadata"]["labels"][kOptimizationJobNameLabel] =
                (*job)->source->name();
      }
      plans.push_back(std::move(plan));
    }
  }
  if (!from_files.empty() && plans.size() > 1)
    throw KubeError("--from-file takes exactly one TrainJob; the inputs hold " +
                    std::to_string(plans.size()));
  for (SubmitPlan& plan : plans) {
    std::string error;
    if (!add_files_config_map(from_files, rendered, plan.name_space, &plan.objects, &error))
      throw KubeError(error);
    plan.kind = source_kind_of(plan.objects);
    plan.objects = order_for_apply(std::move(plan.objects));
    mark_as_submitted(&plan);
  }
  return plans;
}

}  // namespace trainjob
