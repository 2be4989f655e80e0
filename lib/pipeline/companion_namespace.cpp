#include "pipeline/companion_namespace.h"

#include <utility>

#include "legacy/legacy_kinds.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

void add_named(const char* kind, const Json& holder, const char* key, std::set<ObjectRef>* out) {
  std::string name = string_member(holder, key);
  if (!name.empty()) out->insert({kind, name});
}

void container_references(const Json& container, std::set<ObjectRef>* out) {
  const Json& env_from = json_member(container, "envFrom");
  if (env_from.is_array()) {
    for (const Json& source : env_from) {
      add_named("ConfigMap", json_member(source, "configMapRef"), "name", out);
      add_named("Secret", json_member(source, "secretRef"), "name", out);
    }
  }
  const Json& env = json_member(container, "env");
  if (!env.is_array()) return;
  for (const Json& variable : env) {
    const Json& from = json_member(variable, "valueFrom");
    add_named("ConfigMap", json_member(from, "configMapKeyRef"), "name", out);
    add_named("Secret", json_member(from, "secretKeyRef"), "name", out);
  }
}

void volume_references(const Json& volume, std::set<ObjectRef>* out) {
  add_named("ConfigMap", json_member(volume, "configMap"), "name", out);
  add_named("Secret", json_member(volume, "secret"), "secretName", out);
  add_named("PersistentVolumeClaim", json_member(volume, "persistentVolumeClaim"), "claimName",
            out);
  const Json& sources = json_member(json_member(volume, "projected"), "sources");
  if (!sources.is_array()) return;
  for (const Json& source : sources) {
    add_named("ConfigMap", json_member(source, "configMap"), "name", out);
    add_named("Secret", json_member(source, "secret"), "name", out);
  }
}

void pod_references(const Json& pod_spec, std::set<ObjectRef>* out) {
  for (const char* list : {"containers", "initContainers"}) {
    const Json& containers = json_member(pod_spec, list);
    if (!containers.is_array()) continue;
    for (const Json& container : containers)
      container_references(container, out);
  }
  const Json& volumes = json_member(pod_spec, "volumes");
  if (volumes.is_array()) {
    for (const Json& volume : volumes)
      volume_references(volume, out);
  }
  const Json& pull_secrets = json_member(pod_spec, "imagePullSecrets");
  if (pull_secrets.is_array()) {
    for (const Json& secret : pull_secrets)
      add_named("Secret", secret, "name", out);
  }
  add_named("ServiceAccount", pod_spec, "serviceAccountName", out);
  const Json& claims = json_member(pod_spec, "resourceClaims");
  if (!claims.is_array()) return;
  for (const Json& claim : claims) {
    add_named("ResourceClaimTemplate", claim, "resourceClaimTemplateName", out);
    add_named("ResourceClaim", claim, "resourceClaimName", out);
  }
}

const Json& template_pod_spec(const Json& job_spec) {
  return json_member(json_member(job_spec, "template"), "spec");
}

/// The namespace `objects` state (the compiled objects of one job all state the same).
std::string stated_namespace(const std::vector<Json>& objects) {
  for (const Json& object : objects) {
    std::string name_space = string_member(json_member(object, "metadata"), "namespace");
    if (!name_space.empty()) return name_space;
  }
  return "";
}

bool is_job_document(const Document& document) {
  return is_trainjob_document(document) || is_optimization_job_document(document) ||
         is_legacy_document(document);
}

/// `metadata` with `namespace` after `name`, where kubectl prints it.
Json with_namespace(const Json& metadata, const std::string& name_space) {
  Json out = Json::object();
  for (const auto& entry : metadata.items()) {
    out[entry.key()] = entry.value();
    if (entry.key() == "name") out["namespace"] = name_space;
  }
  if (!out.contains("namespace")) out["namespace"] = name_space;
  return out;
}

}  // namespace

std::set<ObjectRef> namespaced_references(const std::vector<Json>& objects) {
  std::set<ObjectRef> out;
  for (const Json& object : objects) {
    const std::string& kind = string_member_ref(object, "kind");
    const Json& spec = json_member(object, "spec");
    if (kind == "Job") {
      pod_references(template_pod_spec(spec), &out);
    } else if (kind == "JobSet") {
      const Json& jobs = json_member(spec, "replicatedJobs");
      if (jobs.is_array()) {
        for (const Json& job : jobs)
          pod_references(template_pod_spec(json_member(json_member(job, "template"), "spec")),
                         &out);
      }
    } else {
      continue;
    }
    add_named("LocalQueue", json_member(json_member(object, "metadata"), "labels"),
              kKueueQueueLabel, &out);
  }
  return out;
}

std::vector<ObjectRef> provided_references(const Document& document) {
  std::string_view group = api_group(document.api_version());
  const std::string& kind = document.kind();
  const std::string& name = document.name();
  if (group.empty() && (kind == "ConfigMap" || kind == "Secret" ||
                        kind == "PersistentVolumeClaim" || kind == "ServiceAccount")) {
    return {{kind, name}};
  }
  if (group == "resource.k8s.io" && (kind == "ResourceClaimTemplate" || kind == "ResourceClaim"))
    return {{kind, name}};
  if (group == "kueue.x-k8s.io" && kind == "LocalQueue") return {{kind, name}};
  if (group == "resource.nvidia.com" && kind == "ComputeDomain") {
    const Json& channel = json_member(json_member(document.value, "spec"), "channel");
    std::string claim = string_member(json_member(channel, "resourceClaimTemplate"), "name");
    if (!claim.empty()) return {{"ResourceClaimTemplate", claim}};
  }
  return {};
}

std::optional<std::string> job_namespace(const Document& document, const CompileOptions& options) {
  if (!is_job_document(document)) return std::nullopt;
  if (!document.name_space().empty()) return document.name_space();
  if (!options.default_namespace.empty()) return options.default_namespace;
  const LegacyKind* kind = find_legacy_kind(document.api_version(), document.kind());
  return kind != nullptr && kind->names_namespace ? "default" : "";
}

void CompanionNamespaces::note(const Document& document, const CompileOptions& options) {
  scopes_.note(document);
  if (std::optional<std::string> name_space = trainjob::job_namespace(document, options)) {
    if (name_space->empty()) {
      job_without_namespace_ = true;
    } else {
      job_namespaces_.insert(*name_space);
    }
    return;
  }
  // Only what a job can refer to is kept: a stream of other documents costs nothing here.
  std::vector<ObjectRef> provides = provided_references(document);
  if (provides.empty() || is_runtime_document(document) || document.name().empty()) return;
  companions_.push_back({document.file, document.pos_of("metadata.namespace"),
                         document.api_version(), document.kind(), document.name(),
                         document.name_space(), std::move(provides)});
}

std::string CompanionNamespaces::job_namespace() const {
  if (job_without_namespace_ || job_namespaces_.size() != 1) return "";
  return *job_namespaces_.begin();
}

bool CompanionNamespaces::namespaced(const Companion& companion) const {
  return scopes_.scope_of(companion.api_version, companion.kind) == ObjectScope::kNamespaced;
}

std::string CompanionNamespaces::landing_namespace(const Companion& companion) const {
  if (!companion.own_namespace.empty()) return companion.own_namespace;
  return namespaced(companion) ? job_namespace() : "";
}

Json CompanionNamespaces::pinned_value(const Document& document) const {
  const Json& metadata = json_member(document.value, "metadata");
  std::string pinned = job_namespace();
  if (pinned.empty() || !metadata.is_object() || !document.name_space().empty() ||
      metadata.contains("namespace") ||
      scopes_.scope_of(document.api_version(), document.kind()) != ObjectScope::kNamespaced) {
    return document.value;
  }
  Json out = document.value;
  out["metadata"] = with_namespace(metadata, pinned);
  return out;
}

std::set<std::string> CompanionNamespaces::keys_of(const std::string& kind,
                                                   const std::string& fallback,
                                                   const std::set<std::string>& failed) const {
  std::set<std::string> out;
  for (const Companion& companion : companions_) {
    if (companion.api_version != "v1" || companion.kind != kind) continue;
    if (failed.count(companion.file) > 0) continue;
    std::string name_space = landing_namespace(companion);
    out.insert((name_space.empty() ? fallback : name_space) + "/" + companion.name);
  }
  return out;
}

void CompanionNamespaces::check_uses(const Document& job, const std::vector<Json>& objects,
                                     Diagnostics* diagnostics) const {
  const std::string job_ns = stated_namespace(objects);
  if (job_ns.empty()) return;  // applied wherever kubectl is pointed: nothing to compare
  std::set<ObjectRef> uses = namespaced_references(objects);
  auto in_job_namespace = [&](const ObjectRef& ref) {
    for (const Companion& other : companions_) {
      if (landing_namespace(other) != job_ns) continue;
      for (const ObjectRef& provided : other.provides) {
        if (provided == ref) return true;
      }
    }
    return false;
  };
  for (const Companion& companion : companions_) {
    if (companion.own_namespace.empty() || companion.own_namespace == job_ns) continue;
    for (const ObjectRef& provided : companion.provides) {
      if (uses.count(provided) == 0 || in_job_namespace(provided)) continue;
      std::string message = companion.kind + " " + companion.name + " names namespace \"";
      message += companion.own_namespace + "\", but " + job.kind() + " " + job.name();
      message += ", which uses it, is in namespace \"" + job_ns;
      message += "\": a job's pods only reach objects of their own namespace; write namespace: ";
      message += job_ns + " here, or move the job to " + companion.own_namespace;
      diagnostics->warning(companion.file, companion.namespace_pos, "metadata.namespace",
                           std::move(message));
      break;
    }
  }
}

}  // namespace trainjob
