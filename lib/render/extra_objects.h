// The objects a policy adds beside the Jobs (hostfiles, scripts, key Secrets): named after
// the TrainJob, in its namespace, with the labels status, logs and delete find them by.
#ifndef TRAINJOB_RENDER_EXTRA_OBJECTS_H_
#define TRAINJOB_RENDER_EXTRA_OBJECTS_H_

#include <optional>
#include <string>

#include "load/json.h"
#include "render/compile_state.h"

namespace trainjob {

/// `metadata` of such an object: name, the TrainJob's namespace and ownership labels.
Json policy_object_metadata(const CompileState& state, const std::string& name);

/// Whether to emit the Secret `name` holding freshly generated keys (CompileState::
/// generate_secrets). When not, warns that it must exist; `what` says what it holds.
bool emit_generated_secret(const CompileState& state, const std::string& name,
                           const std::string& what);

/// The warning that Secret `name` (holding `what`) must exist as it is not emitted.
std::string missing_secret_warning(const std::string& name, const std::string& what);

/// A Secret of generated keys, annotated so that `submit` creates it only when absent: as
/// upstream, a TrainJob submitted again keeps the keys its running pods have.
Json generated_secret(const CompileState& state, const std::string& name, Json data);
/// The same for an object `owner` (the job the plugin finds it by) in `name_space`.
Json generated_secret_of(const std::string& owner, const std::string& name_space,
                         const std::string& name, Json data);

/// A Secret `kubernetes.io/ssh-auth` of a fresh ECDSA P-521 pair (ssh-privatekey,
/// ssh-publickey), as MPI launchers log in to their nodes with; nullopt and *error when
/// libcrypto fails.
std::optional<Json> ssh_auth_secret(const std::string& owner, const std::string& name_space,
                                    const std::string& name, std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_EXTRA_OBJECTS_H_
