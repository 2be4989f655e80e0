#include "render/policy_objects.h"

#include "render/jobset_labels.h"

namespace trainjob {

Json policy_object_metadata(const CompileState& state, const std::string& name) {
  Json metadata = {{"name", name}, {"labels", ownership_labels(state.job.name)}};
  if (!state.job.name_space.empty()) metadata["namespace"] = state.job.name_space;
  return metadata;
}

bool emit_generated_secret(const CompileState& state, const std::string& name,
                           const std::string& what) {
  if (state.generate_secrets) return true;
  state.trainjob.warning("metadata.name", "Secret \"" + name + "\" (" + what +
                                              ") is not in the output but the pods mount it, "
                                              "so it must exist: `submit` creates it, and "
                                              "`render --generate-secrets` prints it");
  return false;
}

Json generated_secret(const CompileState& state, const std::string& name, Json data) {
  Json secret = Json::object();
  secret["apiVersion"] = "v1";
  secret["kind"] = "Secret";
  secret["metadata"] = policy_object_metadata(state, name);
  secret["metadata"]["annotations"] = {{kCreateOnlyIfAbsentAnnotation, "true"}};
  secret["data"] = std::move(data);
  return secret;
}

}  // namespace trainjob
