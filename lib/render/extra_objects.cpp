#include "render/extra_objects.h"

#include "crypto/base64.h"
#include "crypto/ssh_key.h"
#include "model/jobset_labels.h"
#include "model/vocabulary.h"

namespace trainjob {

Json policy_object_metadata(const CompileState& state, const std::string& name) {
  Json metadata = {{"name", name}, {"labels", ownership_labels(state.trainjob.name)}};
  if (!state.trainjob.name_space.empty()) metadata["namespace"] = state.trainjob.name_space;
  return metadata;
}

std::string missing_secret_warning(const std::string& name, const std::string& what) {
  return "Secret \"" + name + "\" (" + what +
         ") is not in the output but the pods mount it, so it must exist: `submit` creates "
         "it, and `render --generate-secrets` prints it";
}

bool emit_generated_secret(const CompileState& state, const std::string& name,
                           const std::string& what) {
  if (state.generate_secrets) return true;
  state.trainjob_reader.warning("metadata.name", missing_secret_warning(name, what));
  return false;
}

Json generated_secret(const CompileState& state, const std::string& name, Json data) {
  return generated_secret_of(state.trainjob.name, state.trainjob.name_space, name, std::move(data));
}

Json generated_secret_of(const std::string& owner, const std::string& name_space,
                         const std::string& name, Json data) {
  Json metadata = {{"name", name}, {"labels", ownership_labels(owner)}};
  if (!name_space.empty()) metadata["namespace"] = name_space;
  metadata["annotations"] = {{kCreateOnlyIfAbsentAnnotation, "true"}};
  Json secret = Json::object();
  secret["apiVersion"] = "v1";
  secret["kind"] = "Secret";
  secret["metadata"] = std::move(metadata);
  secret["data"] = std::move(data);
  return secret;
}

std::optional<Json> ssh_auth_secret(const std::string& owner, const std::string& name_space,
                                    const std::string& name, std::string* error) {
  std::optional<SshKeyPair> key = generate_ssh_key_pair(error);
  if (!key) return std::nullopt;
  Json secret = generated_secret_of(owner, name_space, name,
                                    {{"ssh-privatekey", encode_base64(key->private_pem)},
                                     {"ssh-publickey", encode_base64(key->public_line)}});
  secret["type"] = kSshAuthSecretType;
  secret["immutable"] = true;
  return secret;
}

}  // namespace trainjob
