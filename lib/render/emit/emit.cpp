#include "render/emit/emit.h"

#include <map>

#include "load/json_keys.h"
#include "model/jobset_labels.h"
#include "model/vocabulary.h"
#include "render/gitops_order.h"
#include "render/pod_edit.h"
#include "render/scheduling/kueue.h"
#include "render/steps/failure_policy.h"

namespace trainjob {
namespace {

/// JobSet behaviour a set of plain Jobs cannot reproduce by itself.
/// (successPolicy and dependsOn are carried as Job annotations for `submit --wait`/`status`;
/// volumeClaimPolicies are applied: volume_claims.cpp.)
/// (failurePolicy's maxRestarts is annotated for the client too: failure_policy.h.)
constexpr const char* kJobSetOnlyFields[] = {"startupPolicy", "ttlSecondsAfterFinished",
                                             "coordinator"};

struct Network {
  std::string subdomain;
  bool dns_hostnames = true;
  bool publish_not_ready = true;
};

Network read_network(const CompileState& state) {
  Network network{state.trainjob.name};
  auto it = state.jobset_spec.find("network");
  if (it == state.jobset_spec.end() || !it->is_object()) return network;
  network.subdomain = it->value("subdomain", network.subdomain);
  network.dns_hostnames = it->value("enableDNSHostnames", true);
  network.publish_not_ready = it->value("publishNotReadyAddresses", true);
  return network;
}

/// Built field by field: a Json initializer list would copy the (large) spec.
Json kube_object(const char* api_version, const char* kind, Json metadata, Json spec) {
  Json object = Json::object();
  object["apiVersion"] = api_version;
  object["kind"] = kind;
  object["metadata"] = std::move(metadata);
  object["spec"] = std::move(spec);
  return object;
}

Json object_metadata(const CompileState& state, const std::string& name) {
  Json metadata = {{"name", name}};
  if (!state.trainjob.name_space.empty()) metadata["namespace"] = state.trainjob.name_space;
  return metadata;
}

Json headless_service(const CompileState& state, const Network& network) {
  Json metadata = object_metadata(state, network.subdomain);
  // No JobSet object exists, so the Service carries the TrainJob's own labels and annotations.
  merge_string_map(&metadata, "labels", state.jobset_metadata.value("labels", Json::object()));
  merge_string_map(&metadata, "labels", ownership_labels(state.trainjob.name));
  merge_string_map(&metadata, "annotations",
                   state.jobset_metadata.value("annotations", Json::object()));
  Json spec = {{"clusterIP", "None"},
               {"publishNotReadyAddresses", network.publish_not_ready},
               {"selector", {{kJobSetNameLabel, state.trainjob.name}}}};
  return kube_object("v1", "Service", std::move(metadata), std::move(spec));
}

/// Placement of every Job: indexes over all replicated jobs and within each group.
std::vector<JobPlacement> place_jobs(const CompileState& state) {
  int64_t global_replicas = 0;
  std::map<std::string, int64_t> group_replicas;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    global_replicas += job.replicas;
    group_replicas[job.group] += job.replicas;
  }
  std::vector<JobPlacement> out;
  std::map<std::string, int64_t> group_seen;
  int64_t global_index = 0;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    for (int64_t i = 0; i < job.replicas; ++i) {
      JobPlacement p;
      p.trainjob = state.trainjob.name;
      p.name_space = state.trainjob.name_space;
      p.replicated_job = job.name;
      p.job_name = state.trainjob.name + "-" + job.name + "-" + std::to_string(i);
      p.replicated_job_replicas = job.replicas;
      p.global_replicas = global_replicas;
      p.job_index = i;
      p.job_global_index = global_index++;
      p.group = job.group;
      p.group_replicas = group_replicas[job.group];
      p.job_group_index = group_seen[job.group]++;
      out.push_back(std::move(p));
    }
  }
  return out;
}

void label_pod_template(const CompileState& state, const Json& keys, const Network& network,
                        Json* pod_template) {
  Json& metadata = (*pod_template)["metadata"];
  merge_string_map(&metadata, "labels", state.pod_labels);
  merge_string_map(&metadata, "labels", keys);
  merge_string_map(&metadata, "labels", ownership_labels(state.trainjob.name));
  merge_string_map(&metadata, "annotations", state.pod_annotations);
  merge_string_map(&metadata, "annotations", keys);
  Json& spec = (*pod_template)["spec"];
  if (network.dns_hostnames) spec["subdomain"] = network.subdomain;
  if (!spec.contains("restartPolicy") || spec["restartPolicy"] == "") {
    spec["restartPolicy"] = "OnFailure";
  }
}

/// successPolicy and dependsOn as compact JSON, for the client that stages the Jobs.
void annotate_jobset_policies(const CompileState& state, const ReplicatedJob& rjob,
                              Json* metadata) {
  auto policy = state.jobset_spec.find("successPolicy");
  if (policy != state.jobset_spec.end() && policy->is_object()) {
    Json sorted = *policy;
    sort_keys(&sorted);
    (*metadata)["annotations"][kSuccessPolicyAnnotation] = sorted.dump();
  }
  if (rjob.depends_on.is_array() && !rjob.depends_on.empty()) {
    Json sorted = rjob.depends_on;
    sort_keys(&sorted);
    (*metadata)["annotations"][kDependsOnAnnotation] = sorted.dump();
  }
  annotate_max_restarts(state, metadata);
}

Json make_job(const CompileState& state, const ReplicatedJob& rjob, const JobPlacement& placement,
              const Network& network) {
  Json keys = jobset_keys(placement);
  Json metadata = object_metadata(state, placement.job_name);
  auto template_metadata = rjob.job_template.find("metadata");
  if (template_metadata != rjob.job_template.end() && template_metadata->is_object()) {
    merge_string_map(&metadata, "labels", template_metadata->value("labels", Json::object()));
    merge_string_map(&metadata, "annotations",
                     template_metadata->value("annotations", Json::object()));
  }
  merge_string_map(&metadata, "labels", keys);
  merge_string_map(&metadata, "labels", ownership_labels(state.trainjob.name));
  // Kueue's Job integration admits each Job by its own labels (no JobSet carries them).
  merge_string_map(&metadata, "labels", kueue_job_labels(state));
  merge_string_map(&metadata, "annotations", keys);
  annotate_jobset_policies(state, rjob, &metadata);
  Json spec = rjob.job_template["spec"];
  if (!spec.contains("completionMode")) spec["completionMode"] = "Indexed";
  spec["parallelism"] = rjob.count;
  spec["completions"] = rjob.count;
  spec["suspend"] = state.trainjob.suspend;
  if (state.trainjob.active_deadline_seconds) {
    spec["activeDeadlineSeconds"] = *state.trainjob.active_deadline_seconds.value;
  }
  label_pod_template(state, keys, network, &spec["template"]);
  return kube_object(kBatchApiVersion, "Job", std::move(metadata), std::move(spec));
}

}  // namespace

void warn_jobset_features(const CompileState& state) {
  const ReplicatedJob* job = nullptr;  // the first job that waits for others
  for (const ReplicatedJob& rjob : state.replicated_jobs) {
    if (!rjob.depends_on.is_null() && job == nullptr) job = &rjob;
  }
  for (const char* field : kJobSetOnlyFields) {
    if (state.jobset_spec.contains(field)) {
      state.runtime_reader.warning(
          "spec.template.spec." + std::string(field),
          "JobSet " + std::string(field) + " has no plain-Job equivalent and is not applied");
    }
  }
  warn_failure_policy(state);
  if (state.jobset_spec.contains("successPolicy")) {
    // Under MPI the node pods end by themselves (mpi_node_wrapper.cpp), so say that instead.
    std::string alone = state.ml_policy["mpi"]
                            ? "without them, the MPI node pods end by themselves once the "
                              "launcher pod is gone"
                            : "plain Jobs alone do not stop the other Jobs when the target Jobs "
                              "succeed";
    state.runtime_reader.warning(
        "spec.template.spec.successPolicy",
        "JobSet successPolicy is honoured by `submit --wait` and `status` (from "
        "the Jobs' kubectl-trainjob/success-policy annotation); " +
            alone);
  }
  if (job != nullptr && state.gitops_order == GitOpsOrder::kArgoCD) {
    state.runtime_reader.warning(
        job->path() + ".dependsOn",
        "\"" + job->name +
            "\" waits for the jobs it depends on under `submit --wait`, and "
            "under Argo CD through the Jobs' sync waves (a dependency on "
            "Ready shares its wave); other tools start plain Jobs together");
  } else if (job != nullptr) {
    state.runtime_reader.warning(
        job->path() + ".dependsOn",
        "\"" + job->name +
            "\" waits for the jobs it depends on only under `submit --wait`; "
            "applied without it, plain Jobs start together");
  }
}

/// A Job's ttlSecondsAfterFinished under a GitOps controller: the TTL deletes the finished
/// Job, the controller sees it missing from the cluster and creates it again, and the
/// training runs again. No Argo CD annotation stops that re-creation (Prune=false keeps
/// what Git dropped, IgnoreExtraneous ignores what Git lacks, a hook runs at every sync),
/// so --gitops-order argocd drops the TTL (as its help says); otherwise `render` warns.
bool keep_job_ttl(const CompileState& state, const ReplicatedJob& rjob) {
  auto spec = rjob.job_template.find("spec");
  if (spec == rjob.job_template.end() || !spec->is_object() ||
      !spec->contains("ttlSecondsAfterFinished"))
    return true;
  if (state.gitops_order == GitOpsOrder::kArgoCD) return false;
  if (state.warn_gitops_traps) {
    state.runtime_reader.warning(
        rjob.path() + ".template.spec.ttlSecondsAfterFinished",
        "the Jobs are deleted " + (*spec)["ttlSecondsAfterFinished"].dump() +
            " s after they finish; if an auto-syncing GitOps controller (Argo CD, Flux) applies "
            "them, it then creates them again and the training runs again. Render with "
            "--gitops-order argocd (which drops the TTL) or remove it from a copy of the "
            "runtime passed with -f (docs/gitops.md#immutable-jobs); applied by `submit` or "
            "`kubectl apply`, the TTL only cleans up");
  }
  return true;
}

std::vector<Json> emit_objects(CompileState* state) {
  Network network = read_network(*state);
  std::vector<Json> objects;
  if (network.dns_hostnames) objects.push_back(headless_service(*state, network));
  for (Json& extra : state->extra_objects)
    objects.push_back(std::move(extra));
  std::vector<JobPlacement> placements = place_jobs(*state);
  std::vector<int64_t> waves = sync_waves(state->replicated_jobs);
  size_t next = 0;
  for (size_t j = 0; j < state->replicated_jobs.size(); ++j) {
    const ReplicatedJob& rjob = state->replicated_jobs[j];
    bool keep_ttl = keep_job_ttl(*state, rjob);
    for (int64_t i = 0; i < rjob.replicas; ++i) {
      Json job = make_job(*state, rjob, placements[next++], network);
      if (!keep_ttl) job["spec"].erase("ttlSecondsAfterFinished");
      if (state->gitops_order == GitOpsOrder::kArgoCD) {
        job["metadata"]["annotations"][kArgoSyncWaveAnnotation] = std::to_string(waves[j]);
      }
      objects.push_back(std::move(job));
    }
  }
  return objects;
}

}  // namespace trainjob
