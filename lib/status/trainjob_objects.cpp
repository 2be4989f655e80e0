#include "status/trainjob_objects.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "legacy/legacy_kinds.h"
#include "model/runtime_registry.h"
#include "status/job_not_found.h"
#include "status/trainjob_status.h"

namespace trainjob {
namespace {

/// The kinds `submit` makes by itself, in the order they are deleted: Jobs first (so no new
/// pods start), then PodGroups and the Workload, the Service, ConfigMaps and Secrets.
std::vector<ResourceType> submitted_types() {
  return {job_type(),
          coscheduling_pod_group_type(),
          volcano_pod_group_type(),
          workload_pod_group_type(),
          workload_type(),
          kai_pod_group_type(),
          service_type(),
          config_map_type(),
          secret_type()};
}

/// The annotation is read from the cluster: only names that make a sane URL path are used.
bool plain_name(const std::string& text, const char* extra) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::strchr(extra, c) == nullptr)
      return false;
  }
  return true;
}

bool contains_type(const std::vector<ResourceType>& types, const ResourceType& type) {
  return std::any_of(types.begin(), types.end(), [&](const ResourceType& other) {
    return other.api_version == type.api_version && other.kind == type.kind;
  });
}

/// Adds the kinds `object` says submit applied (kSubmittedKindsAnnotation) to `types`.
void add_recorded_kinds(const Json& object, std::vector<ResourceType>* types) {
  const std::string& recorded =
      string_member_ref(member_or_empty(member_or_empty(object, "metadata"), "annotations"),
                        kSubmittedKindsAnnotation);
  size_t start = 0;
  while (start < recorded.size()) {
    size_t end = std::min(recorded.find(',', start), recorded.size());
    std::string entry = recorded.substr(start, end - start);
    start = end + 1;
    size_t slash = entry.rfind('/');
    if (slash == std::string::npos) continue;
    std::string api_version = entry.substr(0, slash);
    std::string kind = entry.substr(slash + 1);
    if (!plain_name(api_version, "./-") || !plain_name(kind, "") ||
        api_version.find("..") != std::string::npos)
      continue;
    ResourceType type = resource_type(api_version, kind);
    if (!contains_type(*types, type)) types->push_back(type);
  }
}

/// The recorded kinds of `objects`, in the order they are deleted: the usual kinds first, in
/// their order, then the others as recorded.
std::vector<ResourceType> recorded_types(const std::vector<Json>& objects) {
  std::vector<ResourceType> recorded;
  for (const Json& object : objects)
    add_recorded_kinds(object, &recorded);
  std::vector<ResourceType> types;
  for (const ResourceType& type : submitted_types()) {
    if (contains_type(recorded, type)) types.push_back(type);
  }
  for (const ResourceType& type : recorded) {
    if (!contains_type(types, type)) types.push_back(type);
  }
  return types;
}

/// The objects of the usual kinds (and those they record) that `selector` matches. The Jobs
/// come first: when they record what submit applied, exactly those kinds are searched, so a
/// user whose Role covers only what the TrainJob uses (no Secrets, no PodGroups) can delete
/// it. Otherwise (applied by kubectl, or the Jobs gone) every usual kind is searched, and a
/// kind beside Jobs and Services that the user may not list, or the cluster does not serve,
/// is skipped: the user could not have made such objects either.
std::vector<Json> find_labelled_objects(KubeClient* client, const std::string& name_space,
                                        const std::string& selector) {
  std::vector<Json> out = list_objects(client, job_type(), name_space, selector).items;
  for (Json& item : out) {
    item["apiVersion"] = job_type().api_version;  // list items may leave these out
    item["kind"] = job_type().kind;
  }
  std::vector<ResourceType> types = recorded_types(out);
  bool recorded = !types.empty();
  if (!recorded) types = submitted_types();
  // `types` grows as the objects found record more kinds; an index keeps up with it.
  size_t usual = types.size();
  for (size_t i = 0; i < types.size(); ++i) {
    ResourceType type = types[i];
    if (contains_type({job_type()}, type)) continue;  // listed first
    bool speculative = !recorded && i < usual && type.kind != service_type().kind;
    ObjectList list;
    try {
      list = list_objects(client, type, name_space, selector, speculative || !type.group().empty());
    } catch (const KubeError& error) {
      if (!speculative || error.http_status() != 403) throw;
    }
    for (Json& item : list.items) {
      item["apiVersion"] = type.api_version;
      item["kind"] = type.kind;
      add_recorded_kinds(item, &types);
      out.push_back(std::move(item));
    }
  }
  return out;
}

/// "3 Jobs, 1 Service" for the objects found, kinds in the order they are deleted.
std::string count_kinds(const std::vector<Json>& objects) {
  std::vector<std::pair<std::string, int>> counts;
  for (const Json& object : objects) {
    std::string kind = string_member(object, "kind");
    auto it =
        std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == kind; });
    if (it == counts.end())
      counts.emplace_back(kind, 1);
    else
      ++it->second;
  }
  std::string text;
  for (const auto& [kind, count] : counts) {
    bool ends_in_s = !kind.empty() && kind.back() == 's';
    std::string plural = count == 1 ? kind : kind + (ends_in_s ? "es" : "s");
    text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + plural;
  }
  return text;
}

/// `kind/NAME` of what a pod template mounts or takes env from, in `*out`.
void add_used_objects(const Json& pod_spec, std::vector<std::pair<std::string, std::string>>* out) {
  auto add = [out](const char* kind, const std::string& name) {
    std::pair<std::string, std::string> entry{kind, name};
    if (!name.empty() && std::find(out->begin(), out->end(), entry) == out->end())
      out->push_back(entry);
  };
  const Json& volumes = json_member(pod_spec, "volumes");
  for (const Json& volume : volumes.is_array() ? volumes : Json::array()) {
    add("ConfigMap", string_member(member_or_empty(volume, "configMap"), "name"));
    add("Secret", string_member(member_or_empty(volume, "secret"), "secretName"));
    add("PersistentVolumeClaim",
        string_member(member_or_empty(volume, "persistentVolumeClaim"), "claimName"));
  }
  for (const char* list : {"initContainers", "containers"}) {
    const Json& containers = json_member(pod_spec, list);
    for (const Json& container : containers.is_array() ? containers : Json::array()) {
      const Json& sources = json_member(container, "envFrom");
      for (const Json& source : sources.is_array() ? sources : Json::array()) {
        add("ConfigMap", string_member(member_or_empty(source, "configMapRef"), "name"));
        add("Secret", string_member(member_or_empty(source, "secretRef"), "name"));
      }
    }
  }
}

/// After `trainjob "NAME" not found in namespace "NS"`: which labels were looked for.
std::string not_found_detail(const std::string& name_space, const std::string& name) {
  return std::string(": no Job, PodGroup, Service, ConfigMap or Secret carries the labels ") +
         kTrainJobNameLabel + "=" + name + " and " + kCreatedBySubmitLabel + "=" +
         kCreatedBySubmitValue + " (what submit applies) or " + kManagedByLabel + "=" +
         kManagedByValue +
         " (what render writes, applied with kubectl apply); `kubectl "
         "trainjob list -n " +
         name_space + "` shows the TrainJobs there";
}

}  // namespace

std::vector<Json> find_trainjob_objects(KubeClient* client, const std::string& name_space,
                                        const std::string& name) {
  return find_labelled_objects(client, name_space, submitted_selector(name));
}

FoundTrainJob find_deletable_objects(KubeClient* client, const std::string& name_space,
                                     const std::string& name) {
  FoundTrainJob found;
  found.objects = find_trainjob_objects(client, name_space, name);
  if (!found.objects.empty()) return found;
  // Rendered, then applied with `kubectl apply`: render's labels, but not submit's.
  found.objects = find_labelled_objects(client, name_space, rendered_selector(name));
  found.applied_by_kubectl = !found.objects.empty();
  return found;
}

std::string describe_found(const FoundTrainJob& found, const std::string& name) {
  std::string text = "found " + count_kinds(found.objects);
  if (!found.applied_by_kubectl) return text;
  return text + " of trainjob \"" + name + "\" by the labels render writes (" + kTrainJobNameLabel +
         "=" + name + ", " + kManagedByLabel + "=" + kManagedByValue +
         "): applied with kubectl apply rather than submit";
}

std::vector<std::string> delete_objects(KubeClient* client, const std::string& name_space,
                                        const std::vector<Json>& objects) {
  std::vector<std::string> deleted;
  for (const Json& object : objects) {
    if (delete_object(client, resource_type_of(object), name_space, name_of(object)))
      deleted.push_back(display_name(object));
  }
  return deleted;
}

std::vector<std::string> left_behind(KubeClient* client, const std::string& name_space,
                                     const FoundTrainJob& found) {
  std::vector<std::pair<std::string, std::string>> used;
  for (const Json& object : found.objects) {
    if (string_member(object, "kind") == "Job")
      add_used_objects(
          member_or_empty(member_or_empty(member_or_empty(object, "spec"), "template"), "spec"),
          &used);
  }
  std::vector<std::string> left;
  for (const std::pair<std::string, std::string>& entry : used) {
    const std::string& kind = entry.first;
    const std::string& name = entry.second;
    bool deleted = std::any_of(found.objects.begin(), found.objects.end(), [&](const Json& o) {
      return string_member(o, "kind") == kind && name_of(o) == name;
    });
    ResourceType type = resource_type("v1", kind);
    try {
      if (!deleted && get_object(client, type, name_space, name))
        left.push_back(type.qualified_kind() + "/" + name);
    } catch (const KubeError&) {
      // Not readable (no right to get Secrets): nothing to say of it.
    }
  }
  return left;
}

void delete_trainjob(KubeClient* client, const std::string& name_space, const std::string& name,
                     const std::function<void(const Json&)>& on_deleted) {
  delete_found(client, name_space, name, find_deletable_objects(client, name_space, name),
               on_deleted);
}

void delete_found(KubeClient* client, const std::string& name_space, const std::string& name,
                  const FoundTrainJob& found, const std::function<void(const Json&)>& on_deleted) {
  if (found.objects.empty())
    throw JobNotFound(name_space, name, not_found_detail(name_space, name));
  for (const Json& object : found.objects) {
    if (delete_object(client, resource_type_of(object), name_space, name_of(object)))
      on_deleted(object);
  }
}

std::vector<DescribedTrainJob> described_trainjobs(const std::vector<Document>& documents,
                                                   const std::string& default_namespace,
                                                   bool namespace_given, std::string* error) {
  std::vector<DescribedTrainJob> out;
  for (const Document& document : documents) {
    if (!is_trainjob_document(document) && !is_legacy_document(document) &&
        !is_optimization_job_document(document))
      continue;
    std::string name_space =
        document.name_space().empty() ? default_namespace : document.name_space();
    if (namespace_given && name_space != default_namespace) {
      // kubectl refuses this too rather than pick one of the two.
      *error = document.file + ": the namespace of " + document.kind() + " \"" + document.name() +
               "\" (\"" + name_space + "\") does not match -n \"" + default_namespace +
               "\"; pass --namespace=" + name_space + " or leave -n out";
      return {};
    }
    out.push_back({name_space, document.name(), document.kind()});
  }
  if (out.empty())
    *error = "the files describe no TrainJob, no OptimizationJob and no Training Operator job (" +
             supported_legacy_kinds() + ")";
  return out;
}

bool wait_until_gone(KubeClient* client, const Clock& clock, const std::string& name_space,
                     const std::string& name, double timeout_seconds) {
  double deadline = clock.now() + timeout_seconds;
  double delay = 0.1;
  while (true) {
    bool gone = find_deletable_objects(client, name_space, name).objects.empty() &&
                !any_object(client, pod_type(), name_space, trainjob_selector(name));
    if (gone) return true;
    if (timeout_seconds > 0 && clock.now() >= deadline) return false;
    clock.sleep(delay);
    delay = std::min(delay * 2, 1.0);
  }
}

void check_found_kind(const FoundTrainJob& found, const ManagedKind* kind,
                      const std::string& name) {
  if (kind == nullptr || found.objects.empty()) return;
  std::vector<Json> jobs;
  for (const Json& object : found.objects)
    if (string_member(object, "kind") == "Job") jobs.push_back(object);
  std::string actual = source_kind_of(jobs);
  if (jobs.empty() || actual == kind->kind) return;
  throw KubeError(kind->plural.substr(0, kind->plural.size() - 1) + " \"" + name +
                      "\" not found: \"" + name + "\" is a " + actual + "; delete it as " + actual +
                      "/" + name + " or by its name alone",
                  404, "NotFound");
}

}  // namespace trainjob
