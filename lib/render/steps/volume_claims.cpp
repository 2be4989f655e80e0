#include "render/steps/volume_claims.h"

#include <set>

#include "k8s/names.h"
#include "model/jobset_labels.h"
#include "render/pod_edit.h"

namespace trainjob {
namespace {

/// `object[key]` when it is a list, else an empty one: safe to loop over and index.
const Json& list_member(const Json& object, const char* key) {
  static const Json kEmpty = Json::array();
  const Json& value = json_member(object, key);
  return value.is_array() ? value : kEmpty;
}

Field claim_policies(const CompileState& state) {
  return state.runtime_reader.root()["spec"]["template"]["spec"]["volumeClaimPolicies"];
}

/// Calls `visit(template field)` for each template of each policy that is a mapping.
template <typename Visit>
void for_each_template(const CompileState& state, Visit visit) {
  Field policies = claim_policies(state);
  if (!policies || !policies.value->is_array()) return;
  for (size_t i = 0; i < policies.value->size(); ++i) {
    Field policy = policies.at(i);
    Field templates = policy["templates"];
    if (!templates || !templates.value->is_array()) continue;
    for (size_t j = 0; j < templates.value->size(); ++j) {
      if (templates.at(j).value->is_object()) visit(policy, templates.at(j));
    }
  }
}

std::string template_name(const Field& claim) {
  return string_member(json_member(*claim.value, "metadata"), "name");
}

bool mounts(const Json& pod_spec, const std::string& name) {
  for (const char* list : {"containers", "initContainers"}) {
    for (const Json& container : list_member(pod_spec, list)) {
      for (const Json& mount : list_member(container, "volumeMounts")) {
        if (string_member(mount, "name") == name) return true;
      }
    }
  }
  return false;
}

/// DNS-1123 subdomain: dot-separated labels of lower-case letters, digits and '-', ≤ 253.
bool is_dns1123_subdomain(const std::string& name) {
  if (name.empty() || name.size() > 253) return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t dot = name.find('.', start);
    if (dot == std::string::npos) dot = name.size();
    if (!is_dns1123_label(name.substr(start, dot - start))) return false;
    start = dot + 1;
  }
  return true;
}

bool check_claim_name(const CompileState& state, const Field& claim, std::set<std::string>* seen) {
  const FieldReader& rt = state.runtime_reader;
  Field name = claim["metadata"]["name"];
  std::string text = template_name(claim);
  if (!name || !is_dns1123_subdomain(text)) {
    rt.error(name.path(), "expected the claim's name, a DNS-1123 subdomain, found " +
                              (name ? describe_value(*name.value) : std::string("nothing")));
    return false;
  }
  if (!seen->insert(text).second) {
    rt.error(name.path(), "\"" + text + "\" names an earlier claim template too");
    return false;
  }
  std::string claim_name = volume_claim_name(text, state.trainjob.name);
  if (claim_name.size() > kMaxLabelLength) {
    state.trainjob_reader.error("metadata.name", "the claim \"" + claim_name +
                                                     "\" made from template \"" + text +
                                                     "\" would be longer than 63 characters");
    return false;
  }
  return true;
}

bool check_claim_use(const CompileState& state, const Field& claim) {
  std::string name = template_name(claim);
  bool mounted = false;
  bool ok = true;
  for (const ReplicatedJob& job : state.replicated_jobs) {
    const Json& pod_spec =
        json_member(json_member(json_member(job.job_template, "spec"), "template"), "spec");
    mounted = mounted || mounts(pod_spec, name);
    const Json& volumes = list_member(pod_spec, "volumes");
    for (size_t i = 0; i < volumes.size(); ++i) {
      if (string_member(volumes[i], "name") != name) continue;
      state.runtime_reader.error(
          job.path() + ".template.spec.template.spec.volumes[" + std::to_string(i) + "].name",
          "the volume \"" + name +
              "\" clashes with the volumeClaimPolicies "
              "template of that name, which JobSet adds as a volume itself");
      ok = false;
    }
  }
  if (!mounted) {
    state.runtime_reader.error(claim["metadata"]["name"].path(),
                               "no container or init container of any replicated job mounts \"" +
                                   name + "\" (volumeMounts[].name)");
  }
  return ok && mounted;
}

}  // namespace

std::string volume_claim_name(const std::string& template_name, const std::string& trainjob) {
  return template_name + "-" + trainjob;
}

bool check_volume_claims(const CompileState& state) {
  bool ok = true;
  std::set<std::string> seen;
  for_each_template(state, [&](const Field&, const Field& claim) {
    if (claim["metadata"]["namespace"]) {
      state.runtime_reader.error(claim["metadata"]["namespace"].path(),
                                 "a claim template takes no namespace: the claim goes to the "
                                 "TrainJob's");
      ok = false;
    }
    ok = check_claim_name(state, claim, &seen) && check_claim_use(state, claim) && ok;
  });
  Field policies = claim_policies(state);
  for (size_t i = 0; policies && policies.value->is_array() && i < policies.value->size(); ++i) {
    Field when_deleted = policies.at(i)["retentionPolicy"]["whenDeleted"];
    if (when_deleted && *when_deleted.value == "Retain") {
      state.runtime_reader.warning(
          when_deleted.path(),
          "`kubectl trainjob delete` removes these claims with the TrainJob's "
          "other objects: unlike JobSet, it does not retain them");
    }
  }
  return ok;
}

void apply_volume_claims(CompileState* state) {
  for_each_template(*state, [&](const Field&, const Field& claim) {
    std::string name = template_name(claim);
    std::string claim_name = volume_claim_name(name, state->trainjob.name);
    for (ReplicatedJob& job : state->replicated_jobs) {
      if (!mounts(job.pod_spec(), name)) continue;
      Json volume = {{"name", name}, {"persistentVolumeClaim", {{"claimName", claim_name}}}};
      Json& volumes = job.pod_spec()["volumes"];
      if (volumes.is_null()) volumes = Json::array();
      if (volumes.is_array()) volumes.push_back(std::move(volume));
    }
    const Json& metadata = json_member(*claim.value, "metadata");
    Json out_metadata = {{"name", claim_name}};
    if (!state->trainjob.name_space.empty()) out_metadata["namespace"] = state->trainjob.name_space;
    merge_string_map(&out_metadata, "labels", json_member(metadata, "labels"));
    merge_string_map(&out_metadata, "labels", {{kJobSetNameLabel, state->trainjob.name}});
    merge_string_map(&out_metadata, "labels", ownership_labels(state->trainjob.name));
    merge_string_map(&out_metadata, "annotations", json_member(metadata, "annotations"));
    Json object = Json::object();
    object["apiVersion"] = "v1";
    object["kind"] = "PersistentVolumeClaim";
    object["metadata"] = std::move(out_metadata);
    const Json& spec = json_member(*claim.value, "spec");
    object["spec"] = spec.is_object() ? spec : Json::object();
    state->extra_objects.push_back(std::move(object));
  });
}

}  // namespace trainjob
