// (Cluster)TrainingRuntimes between dialects: only the ML policy differs; the JobSet
// template is the same in every release.
#include <algorithm>
#include <string>

#include "convert/convert_dialect.h"
#include "k8s/names.h"
#include "k8s/pod_spec.h"
#include "model/field.h"
#include "model/num_proc.h"
#include "model/runtime_policy.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

constexpr const char* kTorchPath = "spec.mlPolicy.torch";

/// The resources of the `node` container of the trainer's replicated job, or null.
const Json& node_resources(const Json& runtime) {
  static const Json kNone;
  const Json& jobs = json_member(
      json_member(json_member(json_member(runtime, "spec"), "template"), "spec"), "replicatedJobs");
  if (!jobs.is_array()) return kNone;
  for (const Json& job : jobs) {
    const Json& pod = json_member(
        json_member(json_member(json_member(job, "template"), "spec"), "template"), "spec");
    if (const Json* node = find_container(pod, kNodeName)) return json_member(*node, "resources");
  }
  return kNone;
}

/// torch.numProcPerNode for v2.2+, which has no such field: dropped when the release's
/// default (a process per GPU of the node, else per CPU) gives the same, else an error.
void drop_num_proc(const FieldReader& reader, const Json& runtime, Json* torch) {
  auto it = torch->find("numProcPerNode");
  if (it == torch->end()) return;
  const Json& resources = node_resources(runtime);
  std::string mode = it->is_string() ? it->get<std::string>() : "";
  int64_t gpus = gpu_count(resources);
  bool same = mode == "auto" || (mode == "cpu" && gpus == 0) || (mode == "gpu" && gpus > 0);
  if (it->is_number_integer()) {
    int64_t automatic = gpus > 0 ? gpus : std::max<int64_t>(1, cpu_count(resources));
    same = it->get<int64_t>() == automatic;
  }
  if (!same) {
    reader.error(std::string(kTorchPath) + ".numProcPerNode",
                 "Trainer 2.2 removed this field and its default (a process per GPU of the "
                 "node, else per CPU) differs here: set spec.trainer.numProcPerNode: " +
                     it->dump() + " in the TrainJobs that use this runtime instead");
  }
  torch->erase(it);
}

void to_v22(const FieldReader& reader, const Json& runtime, Json* torch) {
  drop_num_proc(reader, runtime, torch);
  if (torch->contains("elasticPolicy")) {
    reader.warning(std::string(kTorchPath) + ".elasticPolicy",
                   "removed in Trainer 2.2; no release acted on it, so nothing changes");
    torch->erase("elasticPolicy");
  }
}

bool check_older(const FieldReader& reader, const Document& runtime, Dialect release) {
  std::string policy = runtime_policy(runtime);
  std::string release_name = std::string("Trainer ") + dialect_info(release).version;
  if (!policy_releases(policy).contains(release)) {
    reader.error("spec.mlPolicy." + policy,
                 "the " + policy + " policy does not exist in " + release_name);
    return false;
  }
  const Json& torch =
      json_member(json_member(json_member(runtime.value, "spec"), "mlPolicy"), "torch");
  if (release < Dialect::kV2_3 && torch.is_object() && torch.contains("envInjection")) {
    reader.error(std::string(kTorchPath) + ".envInjection",
                 "does not exist in " + release_name + " (it came with v2.3)");
    return false;
  }
  return true;
}

/// Trainer 2.4 refuses replicated job names over 20 characters in runtimes, and renaming one
/// would rename its Jobs and pods: an error, as everything convert cannot carry over.
bool check_v24_job_names(const FieldReader& reader, const Json& runtime, Dialect release) {
  if (!dialect_info(release).v2_4_limits) return true;
  const Json& jobs = json_member(
      json_member(json_member(json_member(runtime, "spec"), "template"), "spec"), "replicatedJobs");
  if (!jobs.is_array()) return true;
  bool ok = true;
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::string problem = runtime_job_name_problem(string_member(jobs[i], "name"));
    if (problem.empty()) continue;
    reader.error("spec.template.spec.replicatedJobs[" + std::to_string(i) + "].name",
                 problem + " before converting");
    ok = false;
  }
  return ok;
}

}  // namespace

Json convert_runtime_dialect(const Document& runtime, Dialect release, Diagnostics* diagnostics) {
  FieldReader reader(runtime, diagnostics);
  Json out = runtime.value;
  bool names_ok = check_v24_job_names(reader, runtime.value, release);
  if (!check_older(reader, runtime, release) || !names_ok || release <= Dialect::kV2_1) return out;
  if (!out.contains("spec") || !out["spec"].is_object()) return out;
  Json& policy = out["spec"]["mlPolicy"];
  if (!policy.is_object()) {
    if (policy.is_null()) out["spec"].erase("mlPolicy");
    return out;
  }
  auto torch = policy.find("torch");
  if (torch != policy.end() && torch->is_object()) to_v22(reader, runtime.value, &*torch);
  return out;
}

}  // namespace trainjob
