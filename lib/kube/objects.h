// The REST verbs the commands use, on whole objects: apply, get, list, delete.
#ifndef TRAINJOB_KUBE_OBJECTS_H_
#define TRAINJOB_KUBE_OBJECTS_H_

#include <optional>
#include <string>
#include <vector>

#include "kube/client.h"
#include "kube/resources.h"
#include "load/json.h"

namespace trainjob {

struct ApplyResult {
  bool ok = false;
  bool created = false;  ///< 201: the object did not exist
  Json object;           ///< the server's answer when ok
  std::string error;     ///< the user-facing message when not ok
  int status = 0;
  std::string reason;
  bool immutable = false;          ///< 422 naming a field that cannot change
  bool namespace_missing = false;  ///< 404 for the namespace itself, not the object
};

/// Server-side apply (PATCH application/apply-patch+yaml, fieldManager=kubectl-trainjob).
ApplyResult apply_object(KubeClient* client, const Json& object, const std::string& name_space,
                         bool dry_run, bool force = false);

struct ObjectList {
  std::vector<Json> items;
  std::string resource_version;
};

/// A LIST with a label selector (already URL-escaped); a 404 for the whole type (its CRD
/// is not installed) is an empty list when `missing_ok`.
ObjectList list_objects(KubeClient* client, const ResourceType& type, const std::string& name_space,
                        const std::string& selector, bool missing_ok = false);

/// Whether any object of the type matches `selector`: a LIST of at most one item, as cheap
/// for a thousand pods as for one.
bool any_object(KubeClient* client, const ResourceType& type, const std::string& name_space,
                const std::string& selector);

/// GET; nullopt on 404.
std::optional<Json> get_object(KubeClient* client, const ResourceType& type,
                               const std::string& name_space, const std::string& name);

/// DELETE with propagationPolicy=Background; false when it was already gone.
bool delete_object(KubeClient* client, const ResourceType& type, const std::string& name_space,
                   const std::string& name);

/// `object[key]` without copying, or an empty mapping when there is no such member; safe to
/// keep pointers into (unlike Json::value(), which returns a copy).
const Json& member_or_empty(const Json& object, const char* key);

std::string name_of(const Json& object);
std::string label_of(const Json& object, const char* key);
/// `job.batch/NAME`: how kubectl names an object in messages.
std::string display_name(const Json& object);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_OBJECTS_H_
