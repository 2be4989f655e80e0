#include "render/scheduling/workload_scheduling.h"

#include <map>
#include <string>
#include <vector>

#include "model/jobset_labels.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// The Workload API's limits: templates per Workload, characters of a template's name.
constexpr size_t kMaxPodGroupTemplates = 8;
constexpr size_t kMaxTemplateName = 63;

/// What a level may set besides its policy; they go to its PodGroup as written.
constexpr const char* kGroupSettings[] = {"schedulingConstraints", "disruptionMode",
                                          "resourceClaims"};

/// One gang (or basic group): the pods it covers and what schedules them.
struct Group {
  std::string name;                  ///< its PodGroupTemplate's
  std::vector<ReplicatedJob*> jobs;  ///< the replicated jobs whose pods it holds
  int64_t replica = -1;              ///< level 3: the one Job of jobs[0] it holds
  Json policy;                       ///< schedulingPolicy: {gang: {}} or {basic: {}}
  Json settings = Json::object();    ///< kGroupSettings that its level sets

  int64_t pods() const {
    int64_t total = 0;
    for (const ReplicatedJob* job : jobs)
      total += job->count * (replica >= 0 ? 1 : job->replicas);
    return total;
  }
  /// Exactly one Job's pods: that Job's own spec.scheduling can say it.
  bool one_job() const {
    return jobs.size() == 1 && (replica >= 0 || jobs[0]->replicas == 1) &&
           !settings.contains("resourceClaims");  // a Job's spec.scheduling has none
  }
};

bool has_level_fields(const Field& level) {
  if (level["schedulingPolicy"]) return true;
  for (const char* name : kGroupSettings) {
    if (level[name]) return true;
  }
  return false;
}

/// The policy and settings of one level (spec.scheduling, an entry, an entry's job), which
/// may be absent (--gang): a policy left out is a gang.
bool read_level(const FieldReader& rt, const Field& level, Group* group) {
  for (const char* name : kGroupSettings) {
    if (level[name]) group->settings[name] = *level[name].value;
  }
  group->policy = {{"gang", Json::object()}};
  Field policy = level["schedulingPolicy"];
  if (!policy) return true;
  if (!rt.is_object(policy)) return false;
  bool gang = static_cast<bool>(policy["gang"]);
  if (gang == static_cast<bool>(policy["basic"])) {
    rt.error(policy.path(),
             "expected exactly one of `gang: {}` (all pods or none) and "
             "`basic: {}` (each pod on its own)");
    return false;
  }
  if (policy["gang"]["minCount"]) {
    rt.error(policy["gang"]["minCount"].path(),
             "gang.minCount is computed (the number of pods the group holds, from numNodes "
             "for the trainer) and must not be set; remove it");
    return false;
  }
  if (!gang) group->policy = {{"basic", Json::object()}};
  return true;
}

/// Level 1: one group of every job, or, when jobs start in sequence (dependsOn), one per
/// replicated job: a gang over all pods could never be complete.
bool level_one(CompileState* state, std::vector<Group>* groups) {
  Group all;
  if (!read_level(state->runtime_reader, state->scheduling, &all)) return false;
  bool sequenced = false;
  for (ReplicatedJob& job : state->replicated_jobs)
    sequenced = sequenced || !job.depends_on.is_null();
  if (!sequenced) {
    all.name = state->trainjob.name;
    for (ReplicatedJob& job : state->replicated_jobs)
      all.jobs.push_back(&job);
    groups->push_back(std::move(all));
    return true;
  }
  for (ReplicatedJob& job : state->replicated_jobs) {
    Group one = all;
    one.name = job.name;
    one.jobs = {&job};
    groups->push_back(std::move(one));
  }
  return true;
}

/// The replicated jobs an entry names; each may be named by one entry only.
bool read_targets(CompileState* state, const Field& entry,
                  std::map<std::string, std::string>* targeted, std::vector<ReplicatedJob*>* out) {
  const FieldReader& rt = state->runtime_reader;
  Field targets = entry["targetReplicatedJobs"];
  if (!targets || (rt.is_array(targets) && targets.value->empty())) {
    rt.error(targets.path(), "required: the names of the replicated jobs this entry schedules");
    return false;
  }
  if (!targets.value->is_array()) return false;
  bool ok = true;
  for (size_t i = 0; i < targets.value->size(); ++i) {
    std::optional<std::string> name = rt.string(targets.at(i));
    if (!name) {
      ok = false;
      continue;
    }
    ReplicatedJob* job = state->find_job(*name);
    if (job == nullptr) {
      std::string known;
      for (const ReplicatedJob& each : state->replicated_jobs)
        known += (known.empty() ? "" : ", ") + each.name;
      rt.error(targets.at(i).path(), "expected a replicated job of this runtime (" + known +
                                         "), found \"" + *name + "\"");
      ok = false;
    } else if (targeted->count(*name) != 0) {
      rt.error(targets.at(i).path(), "\"" + *name + "\" is targeted by " + (*targeted)[*name] +
                                         " too; a replicated job belongs to one entry");
      ok = false;
    } else {
      (*targeted)[*name] = entry.path();
      out->push_back(job);
    }
  }
  return ok;
}

/// A job that waits for another (dependsOn) cannot share its gang: the gang would never be
/// complete while it waits.
bool check_not_sequenced(const FieldReader& rt, const Field& entry,
                         const std::vector<ReplicatedJob*>& jobs) {
  for (const ReplicatedJob* job : jobs) {
    if (!job->depends_on.is_array()) continue;
    for (const Json& dependency : job->depends_on) {
      std::string name = dependency.is_object() ? dependency.value("name", "") : "";
      for (const ReplicatedJob* other : jobs) {
        if (other->name != name) continue;
        rt.error(entry["targetReplicatedJobs"].path(),
                 "\"" + job->name + "\" starts only once \"" + name + "\" is " +
                     dependency.value("status", "ready") +
                     " (dependsOn), so one group of both would never be complete: give each "
                     "its own entry");
        return false;
      }
    }
  }
  return true;
}

/// Level 2 (one group of the entry's jobs) or, with `job`, level 3 (a group per Job).
bool read_entry(CompileState* state, const Field& entry,
                std::map<std::string, std::string>* targeted, std::vector<Group>* groups) {
  const FieldReader& rt = state->runtime_reader;
  if (!rt.is_object(entry)) return false;
  Group group;
  if (!read_targets(state, entry, targeted, &group.jobs)) return false;
  Field job = entry["job"];
  if (!job) {
    for (const ReplicatedJob* each : group.jobs)
      group.name += (group.name.empty() ? "" : "-") + each->name;
    if (!check_not_sequenced(rt, entry, group.jobs)) return false;
    if (!read_level(rt, entry, &group)) return false;
    groups->push_back(std::move(group));
    return true;
  }
  if (has_level_fields(entry) || group.jobs.size() != 1) {
    rt.error(job.path(),
             "`job` gives each Job of one replicated job its own group: it takes "
             "exactly one targetReplicatedJobs and no schedulingPolicy, "
             "schedulingConstraints, disruptionMode or resourceClaims beside it "
             "(those would need a CompositePodGroup over the Jobs)");
    return false;
  }
  if (!read_level(rt, job, &group)) return false;
  for (int64_t i = 0; i < group.jobs[0]->replicas; ++i) {
    Group one = group;
    one.replica = i;
    one.name = group.jobs[0]->name + "-" + std::to_string(i);
    groups->push_back(std::move(one));
  }
  return true;
}

/// Level 2 and 3: every replicated job in exactly one entry, and no level 1 field beside.
bool per_job_levels(CompileState* state, const Field& entries, std::vector<Group>* groups) {
  const FieldReader& rt = state->runtime_reader;
  if (!rt.is_array(entries)) return false;
  if (has_level_fields(state->scheduling)) {
    rt.error(state->scheduling.path(),
             "a TrainJob-level schedulingPolicy, schedulingConstraints, disruptionMode or "
             "resourceClaims cannot stand beside replicatedJobs (that needs a "
             "CompositePodGroup, alpha in Kubernetes 1.37); keep one of the two");
    return false;
  }
  std::map<std::string, std::string> targeted;
  bool ok = true;
  for (size_t i = 0; i < entries.value->size(); ++i)
    ok = read_entry(state, entries.at(i), &targeted, groups) && ok;
  for (const ReplicatedJob& job : state->replicated_jobs) {
    if (ok && targeted.count(job.name) == 0) {
      rt.error(entries.path(), "replicated job \"" + job.name +
                                   "\" is in no entry; with replicatedJobs every replicated "
                                   "job needs one (no TrainJob-level policy covers the rest): "
                                   "add it to an entry's targetReplicatedJobs");
      ok = false;
    }
  }
  return ok;
}

/// The runtime's templates must leave the fields the groups set to them, and the pods to
/// the default scheduler, whose GangScheduling plugin reads the groups.
bool check_templates_free(CompileState* state) {
  bool ok = true;
  for (ReplicatedJob& job : state->replicated_jobs) {
    std::string scheduler = job.pod_spec().value("schedulerName", "default-scheduler");
    if (scheduler != "default-scheduler") {
      state->runtime_reader.error(
          job.path() + ".template.spec.template.spec.schedulerName",
          "the pods name the scheduler \"" + scheduler +
              "\", but the gang of spec.scheduling (or --gang) is kept by the default "
              "scheduler's GangScheduling plugin: remove schedulerName, or gang the pods with "
              "that scheduler's own PodGroup instead");
      ok = false;
    }
    const Json& spec = job.job_template["spec"];
    const char* owned = spec.contains("scheduling") ? ".template.spec.scheduling"
                        : job.pod_spec().contains("schedulingGroup")
                            ? ".template.spec.template.spec.schedulingGroup"
                            : nullptr;
    if (owned == nullptr) continue;
    state->runtime_reader.error(job.path() + owned,
                                "set from spec.scheduling (or --gang), which places every job "
                                "in its group; remove it here");
    ok = false;
  }
  return ok;
}

bool check_groups(const CompileState& state, const std::vector<Group>& groups) {
  const FieldReader& rt = state.runtime_reader;
  std::string where = state.scheduling ? state.scheduling.path() : "spec";
  if (groups.size() > kMaxPodGroupTemplates) {
    rt.error(where, "resolves to " + std::to_string(groups.size()) +
                        " groups; a Workload holds at most 8 PodGroupTemplates");
    return false;
  }
  for (const Group& group : groups) {
    if (group.name.size() > kMaxTemplateName) {
      rt.error(where, "the group name \"" + group.name + "\" is over 63 characters; " +
                          "target fewer or shorter replicated jobs per entry");
      return false;
    }
  }
  return true;
}

Json gang_policy(const Group& group, bool with_min_count) {
  Json policy = group.policy;
  if (with_min_count && policy.contains("gang")) policy["gang"]["minCount"] = group.pods();
  return policy;
}

/// Each group is one Job: the Job's own spec.scheduling (its gang minCount is parallelism).
void schedule_jobs(const std::vector<Group>& groups) {
  for (const Group& group : groups) {
    Json scheduling = group.settings;
    scheduling["schedulingPolicy"] = gang_policy(group, false);
    group.jobs[0]->job_template["spec"]["scheduling"] = std::move(scheduling);
  }
}

Json scheduling_object(const CompileState& state, const char* kind, const std::string& name) {
  Json metadata = {{"name", name}, {"labels", ownership_labels(state.trainjob.name)}};
  if (!state.trainjob.name_space.empty()) metadata["namespace"] = state.trainjob.name_space;
  return Json{{"apiVersion", kWorkloadApiVersion}, {"kind", kind}, {"metadata", metadata}};
}

/// One Workload, a PodGroup per group, the pods in their group.
bool schedule_pods(CompileState* state, const std::vector<Group>& groups) {
  const std::string& trainjob = state->trainjob.name;
  Json workload = scheduling_object(*state, "Workload", trainjob);
  Json& templates = workload["spec"]["podGroupTemplates"] = Json::array();
  std::vector<Json> pod_groups;
  for (const Group& group : groups) {
    if (group.replica >= 0 && group.jobs[0]->replicas > 1) {
      state->runtime_reader.error(
          group.jobs[0]->path(),
          "`job` (a group per Job) with " + std::to_string(group.jobs[0]->replicas) +
              " replicas needs each Job in its own PodGroup, which the Jobs of one template "
              "can name only as their own spec.scheduling: drop resourceClaims from `job`, or "
              "render --target jobs");
      return false;
    }
    Json entry = group.settings;
    entry["name"] = group.name;
    entry["schedulingPolicy"] = gang_policy(group, true);
    std::string name = group.name == trainjob ? trainjob : trainjob + "-" + group.name;
    Json pod_group = scheduling_object(*state, "PodGroup", name);
    pod_group["spec"] = group.settings;
    pod_group["spec"]["schedulingPolicy"] = entry["schedulingPolicy"];
    pod_group["spec"]["workloadRef"] = {{"workloadName", trainjob}, {"templateName", group.name}};
    templates.push_back(std::move(entry));
    pod_groups.push_back(std::move(pod_group));
    for (ReplicatedJob* job : group.jobs)
      job->pod_spec()["schedulingGroup"] = {{"podGroupName", name}};
  }
  state->extra_objects.push_back(std::move(workload));
  for (Json& pod_group : pod_groups)
    state->extra_objects.push_back(std::move(pod_group));
  return true;
}

}  // namespace

bool apply_workload_scheduling(CompileState* state) {
  if (!state->scheduling && !state->gang) return true;
  if (state->scheduling && !state->runtime_reader.is_object(state->scheduling)) return false;
  if (state->pod_group_policy) {
    std::string asked = state->scheduling ? "spec.scheduling" : "--gang";
    state->runtime_reader.error(
        state->pod_group_policy.path(),
        asked +
            " asks for Kubernetes' own gang scheduling (Workload API), and podGroupPolicy "
            "for the coscheduling or Volcano scheduler's; they cannot both group the "
            "pods: keep one");
    return false;
  }
  std::vector<Group> groups;
  Field entries = state->scheduling["replicatedJobs"];
  bool ok = entries ? per_job_levels(state, entries, &groups) : level_one(state, &groups);
  ok = check_templates_free(state) && ok;
  if (!ok || !check_groups(*state, groups)) return false;
  // Several Jobs share one Workload, as upstream's TrainJob controller makes it; the Jobs
  // of a replicated job with replicas > 1 share one pod template, so a gang per Job (level
  // 3) can only be each Job's own.
  bool one_job_each = state->render_target == RenderTarget::kJobs;
  bool per_job = groups.size() == 1 && groups[0].jobs.size() == 1;
  for (const Group& group : groups) {
    one_job_each = one_job_each && group.one_job();
    per_job = per_job || group.replica >= 0;
  }
  if (one_job_each && per_job) {
    schedule_jobs(groups);
    return true;
  }
  return schedule_pods(state, groups);
}

}  // namespace trainjob
