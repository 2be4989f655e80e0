#include "render/emit/emit_jobset.h"

#include "model/jobset_labels.h"
#include "model/vocabulary.h"
#include "render/pod_edit.h"
#include "render/scheduling/kueue.h"

namespace trainjob {
namespace {

/// Labels and annotations upstream gives the JobSet (runtime template metadata, then the
/// TrainJob's), plus ours so `kubectl delete -l` finds it with the side objects, and the
/// TrainJob's Kueue labels, which Kueue's JobSet integration admits the JobSet by.
Json jobset_metadata(const CompileState& state) {
  Json metadata = {{"name", state.trainjob.name}};
  if (!state.trainjob.name_space.empty()) metadata["namespace"] = state.trainjob.name_space;
  merge_string_map(&metadata, "labels", state.jobset_metadata.value("labels", Json::object()));
  merge_string_map(&metadata, "labels", kueue_job_labels(state));
  merge_string_map(&metadata, "labels", ownership_labels(state.trainjob.name));
  merge_string_map(&metadata, "annotations",
                   state.jobset_metadata.value("annotations", Json::object()));
  return metadata;
}

/// One compiled `replicatedJobs[i]`: the runtime's item (name, groupName, dependsOn as
/// written) with the compiled template. parallelism = completions = the pod count, as the
/// Trainer's JobSet plugin sets them on every replicated job.
Json replicated_job(const CompileState& state, ReplicatedJob* rjob) {
  Json item = rjob->field.value->is_object() ? *rjob->field.value : Json::object();
  item["name"] = rjob->name;
  item["replicas"] = rjob->replicas;
  if (!rjob->depends_on.is_null()) item["dependsOn"] = rjob->depends_on;
  Json& spec = rjob->job_template["spec"];
  spec["parallelism"] = rjob->count;
  spec["completions"] = rjob->count;
  // The Trainer enforces activeDeadlineSeconds on the whole TrainJob; without it, each
  // Job's own deadline is the nearest equivalent (as for --target jobs).
  if (state.trainjob.active_deadline_seconds) {
    spec["activeDeadlineSeconds"] = *state.trainjob.active_deadline_seconds.value;
  }
  Json& pod_metadata = rjob->pod_template()["metadata"];
  merge_string_map(&pod_metadata, "labels", state.pod_labels);
  merge_string_map(&pod_metadata, "annotations", state.pod_annotations);
  if (pod_metadata.empty()) rjob->pod_template().erase("metadata");
  item["template"] = std::move(rjob->job_template);
  return item;
}

}  // namespace

std::vector<Json> emit_jobset(CompileState* state) {
  std::vector<Json> objects;
  for (Json& extra : state->extra_objects)
    objects.push_back(std::move(extra));
  Json spec = state->jobset_spec;  // network, successPolicy, failurePolicy, ... as written
  Json jobs = Json::array();
  for (ReplicatedJob& rjob : state->replicated_jobs)
    jobs.push_back(replicated_job(*state, &rjob));
  spec["replicatedJobs"] = std::move(jobs);
  spec["suspend"] = state->trainjob.suspend;
  Json jobset = Json::object();
  jobset["apiVersion"] = kJobSetApiVersion;
  jobset["kind"] = "JobSet";
  jobset["metadata"] = jobset_metadata(*state);
  jobset["spec"] = std::move(spec);
  objects.push_back(std::move(jobset));
  return objects;
}

}  // namespace trainjob
