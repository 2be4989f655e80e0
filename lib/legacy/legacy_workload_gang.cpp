#include "legacy/legacy_workload_gang.h"

#include <algorithm>

#include "load/json_keys.h"
#include "model/jobset_labels.h"
#include "model/vocabulary.h"

namespace trainjob {

bool gang_compiled_jobs(const std::string& name, const FieldReader& reader,
                        std::vector<Json>* objects) {
  std::vector<Json*> jobs;
  std::string name_space;
  for (Json& object : *objects) {
    const std::string& kind = string_member_ref(object, "kind");
    if (kind == "PodGroup") {
      reader.error("spec",
                   "--gang asks for Kubernetes' own gang scheduling, and the pods "
                   "already name a gang scheduler (schedulerName, "
                   "runPolicy.schedulingPolicy) with its PodGroup: keep one");
      return false;
    }
    if (kind != "Job" ||
        object["metadata"].value("annotations", Json::object()).contains(kDependsOnAnnotation))
      continue;
    jobs.push_back(&object);
    name_space = string_member(object["metadata"], "namespace");
  }
  if (jobs.size() == 1) {
    (*jobs[0])["spec"]["scheduling"] = {{"schedulingPolicy", {{"gang", Json::object()}}}};
    return true;
  }
  Json policy = {{"gang", {{"minCount", static_cast<int64_t>(jobs.size())}}}};
  Json metadata = {{"name", name}, {"labels", ownership_labels(name)}};
  if (!name_space.empty()) metadata["namespace"] = name_space;
  Json workload = {
      {"apiVersion", kWorkloadApiVersion}, {"kind", "Workload"}, {"metadata", metadata}};
  workload["spec"]["podGroupTemplates"] = {{{"name", name}, {"schedulingPolicy", policy}}};
  Json pod_group = {
      {"apiVersion", kWorkloadApiVersion}, {"kind", "PodGroup"}, {"metadata", metadata}};
  pod_group["spec"] = {{"schedulingPolicy", policy},
                       {"workloadRef", {{"workloadName", name}, {"templateName", name}}}};
  for (Json* job : jobs)
    (*job)["spec"]["template"]["spec"]["schedulingGroup"] = {{"podGroupName", name}};
  sort_keys(&workload);
  sort_keys(&pod_group);
  auto first_job = std::find_if(objects->begin(), objects->end(), [](const Json& object) {
    return string_member_ref(object, "kind") == "Job";
  });
  size_t at = static_cast<size_t>(first_job - objects->begin());
  objects->insert(objects->begin() + static_cast<std::ptrdiff_t>(at), std::move(pod_group));
  objects->insert(objects->begin() + static_cast<std::ptrdiff_t>(at), std::move(workload));
  return true;
}

}  // namespace trainjob
