// Small edits of pod templates with the Trainer's upsert semantics: an item with the
// same key is replaced where it stands, otherwise the item is appended.
#ifndef TRAINJOB_RENDER_POD_EDIT_H_
#define TRAINJOB_RENDER_POD_EDIT_H_

#include <string>
#include <string_view>

#include "k8s/pod_spec.h"
#include "load/json.h"

namespace trainjob {

/// Replaces the item of `(*object)[list]` whose `key` equals `item[key]`, or appends it.
void upsert_by_key(Json* object, std::string_view list, const Json& item, std::string_view key);
void upsert_env(Json* container, const Json& env_var);
void upsert_env_value(Json* container, const std::string& name, const std::string& value);
/// Places a policy's variables as upstream's order leaves them: the policy sets its env
/// before spec.trainer.env (`trainer_env`) is upserted, so they stand before the first
/// variable the TrainJob added, and a TrainJob's value of one of them replaces the policy's
/// where the policy put it. A variable the runtime's template already has keeps its place
/// and its value.
void place_policy_env(Json* container, const Json& policy_env, const Json& trainer_env);
/// Ports match by number or by name, as the Trainer's port upsert does.
void upsert_port(Json* container, const Json& port);
/// Adds each key of `values` to the string map `(*object)[field]`.
void merge_string_map(Json* object, std::string_view field, const Json& values);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POD_EDIT_H_
