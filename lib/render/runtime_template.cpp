#include "render/runtime_template.h"

#include <set>

#include "k8s/names.h"
#include "model/jobset_labels.h"
#include "model/trainjob_steps.h"
#include "render/pod_edit.h"
#include "render/steps/job_rules.h"

namespace trainjob {
namespace {

bool read_counts(const FieldReader& rt, const Field& item, ReplicatedJob* job) {
  job->replicas = rt.integer(item["replicas"]).value_or(1);
  job->count = rt.integer(item["template"]["spec"]["parallelism"]).value_or(1);
  job->group = rt.string(item["groupName"]).value_or("default");
  if (job->replicas < 1) {
    rt.error(item["replicas"].path(),
             "expected an integer ≥ 1, found " + std::to_string(job->replicas));
    return false;
  }
  return true;
}

/// Ancestor jobs must hold exactly one Job and the container the step runs in.
bool check_ancestor(const FieldReader& rt, const Field& item, const ReplicatedJob& job) {
  const TrainJobStep* step = find_trainjob_step(job.ancestor);
  if (step == nullptr) return true;
  bool ok = true;
  if (job.replicas != 1) {
    rt.error(item["replicas"].path(), "a job labelled " + job.ancestor +
                                          " ancestor must have replicas 1, found " +
                                          std::to_string(job.replicas));
    ok = false;
  }
  const Json& pod_spec = job.job_template["spec"]["template"]["spec"];
  if (!has_container(pod_spec, "containers", step->container)) {
    rt.error(item["template"]["spec"]["template"]["spec"]["containers"].path(),
             "a job labelled " + job.ancestor + " ancestor must have a container named \"" +
                 step->container + "\"");
    ok = false;
  }
  return ok;
}

bool check_network(const FieldReader& rt, const Field& network) {
  if (!network) return true;
  if (!rt.is_object(network)) return false;
  bool ok = true;
  for (const char* flag : {"enableDNSHostnames", "publishNotReadyAddresses"}) {
    if (network[flag] && !rt.boolean(network[flag])) ok = false;
  }
  Field subdomain = network["subdomain"];
  if (!subdomain) return ok;
  std::optional<std::string> name = rt.string(subdomain);
  if (name && !is_dns1035_label(*name)) {
    rt.error(subdomain.path(),
             "expected a DNS-1035 label (the headless Service's name), found \"" + *name + "\"");
  }
  return ok && name && is_dns1035_label(*name);
}

/// Trainer 2.4 refuses a runtime whose replicated job names are longer than 20 characters;
/// for an older release it is a warning, so runtimes are fixed before the upgrade. One text for
/// both, so a runtime checked by itself and then compiled against is reported once.
bool check_job_name_length(const FieldReader& rt, const Field& field, const std::string& name,
                           const DialectInfo& dialect) {
  std::string message = runtime_job_name_problem(name);
  if (message.empty()) return true;
  if (!dialect.v2_4_limits) {
    rt.warning(field.path(), message);
    return true;
  }
  rt.error(field.path(), message);
  return false;
}

bool read_job(const FieldReader& rt, const Field& item, const DialectInfo& dialect,
              std::set<std::string>* names, ReplicatedJob* job) {
  if (!rt.is_object(item)) return false;
  std::optional<std::string> name = rt.string(item["name"]);
  if (!name) {
    if (!item["name"]) rt.error(item["name"].path(), "required: the replicated job's name");
    return false;
  }
  if (!is_dns1035_label(*name)) {
    rt.error(item["name"].path(),
             "expected a DNS-1035 label (lower-case letters, digits, '-'; "
             "starting with a letter), found \"" +
                 *name + "\"");
    return false;
  }
  bool length_ok = check_job_name_length(rt, item["name"], *name, dialect);
  if (!names->insert(*name).second) {
    rt.error(item["name"].path(), "duplicate replicated job name \"" + *name + "\"");
    return false;
  }
  Field job_template = item["template"];
  bool metadata_ok = check_metadata(rt, job_template["metadata"]);
  metadata_ok = check_metadata(rt, job_template["spec"]["template"]["metadata"]) && metadata_ok;
  if (!rt.is_object(job_template) || !rt.is_object(job_template["spec"]["template"]["spec"])) {
    if (!job_template["spec"]["template"]["spec"]) {
      rt.error(job_template["spec"]["template"]["spec"].path(), "required: the pod spec");
    }
    return false;
  }
  job->name = *name;
  job->field = item;
  job->job_template = *job_template.value;
  if (item["dependsOn"]) job->depends_on = *item["dependsOn"].value;
  job->ancestor = rt.string(job_template["metadata"]["labels"][kAncestorLabel]).value_or("");
  bool counts_ok = read_counts(rt, item, job);
  bool rules_ok = check_job_template(rt, job_template);
  return check_ancestor(rt, item, *job) && counts_ok && metadata_ok && rules_ok && length_ok;
}

void read_jobset_metadata(const Field& runtime_metadata, CompileState* state) {
  for (const char* map : {"labels", "annotations"}) {
    if (runtime_metadata && runtime_metadata.value->is_object()) {
      merge_string_map(&state->jobset_metadata, map,
                       runtime_metadata.value->value(map, Json::object()));
    }
  }
  merge_string_map(&state->jobset_metadata, "labels", state->trainjob.jobset_labels);
  merge_string_map(&state->jobset_metadata, "annotations", state->trainjob.jobset_annotations);
}

}  // namespace

bool check_metadata(const FieldReader& reader, const Field& metadata) {
  if (!metadata) return true;
  if (!reader.is_object(metadata)) return false;
  bool ok = true;
  for (const char* map : {"labels", "annotations"}) {
    Field values = metadata[map];
    if (!values) continue;
    if (!reader.is_object(values)) {
      ok = false;
      continue;
    }
    for (const auto& entry : values.value->items()) {
      if (!reader.string(values[entry.key()])) ok = false;
    }
  }
  return ok;
}

bool read_runtime_template(CompileState* state) {
  const FieldReader& rt = state->runtime_reader;
  Field spec = rt.root()["spec"];
  if (!rt.is_object(spec)) {
    if (!spec) rt.error("spec", "required: the runtime's spec");
    return false;
  }
  state->ml_policy = spec["mlPolicy"];
  state->pod_group_policy = spec["podGroupPolicy"];
  state->scheduling = spec["scheduling"];
  Field jobset = spec["template"]["spec"];
  Field list = jobset["replicatedJobs"];
  if (!rt.is_array(list) || list.value->empty()) {
    if (!list || list.value->empty()) {
      rt.error(list.path(), "required: at least one replicated job");
    }
    return false;
  }
  bool ok = check_metadata(rt, spec["template"]["metadata"]);
  ok = check_network(rt, jobset["network"]) && ok;
  ok = check_job_order(rt, jobset) && ok;
  read_jobset_metadata(spec["template"]["metadata"], state);
  // Everything but the replicated jobs, which are read one by one below.
  state->jobset_spec = Json::object();
  for (const auto& entry : jobset.value->items()) {
    if (entry.key() != "replicatedJobs") state->jobset_spec[entry.key()] = entry.value();
  }
  std::set<std::string> names;
  for (size_t i = 0; i < list.value->size(); ++i) {
    ReplicatedJob job;
    if (read_job(rt, list.at(i), state->dialect, &names, &job)) {
      state->replicated_jobs.push_back(std::move(job));
    } else {
      ok = false;
    }
  }
  return ok;
}

}  // namespace trainjob
