#include "cluster/cluster_runtimes.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "embed/embedded.h"
#include "kube/kube_error.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

const ResourceType& cluster_training_runtime_type() {
  static const ResourceType type = resource_type(kTrainerApiVersion, kClusterTrainingRuntime);
  return type;
}

const ResourceType& training_runtime_type() {
  static const ResourceType type = resource_type(kTrainerApiVersion, kTrainingRuntime);
  return type;
}

/// What the server adds to an object: not the runtime's own, and not for the compiler.
Json without_server_fields(Json object) {
  object.erase("status");
  Json& metadata = object["metadata"];
  for (const char* key :
       {"managedFields", "resourceVersion", "uid", "generation", "creationTimestamp", "selfLink"})
    metadata.erase(key);
  return object;
}

void add_runtimes(KubeClient* client, const ResourceType& type, const std::string& name_space,
                  std::vector<Document>* out) {
  ObjectList list = list_objects(client, type, name_space, "", /*missing_ok=*/true);
  for (Json& item : list.items) {
    item["apiVersion"] = type.api_version;  // list items may leave these out
    item["kind"] = type.kind;
    Document document;
    document.file = "cluster:" + type.plural + "/" + name_of(item);
    document.value = without_server_fields(std::move(item));
    out->push_back(std::move(document));
  }
}

bool has_embedded_runtime_named(const std::string& name) {
  for (const EmbeddedFile& file : embedded_runtimes()) {
    std::string_view base = file.path.substr(file.path.rfind('/') + 1);
    if (base == name + ".yaml") return true;
  }
  return false;
}

}  // namespace

bool cluster_serves_runtimes(KubeClient* client) {
  ApiResponse response = client->send("GET", std::string("/apis/") + kTrainerApiVersion);
  if (!response.ok()) return false;  // 404: the Trainer's CRDs are not installed
  Json answer = response.json();
  const Json& resources = member_or_empty(answer, "resources");
  if (!resources.is_array()) return false;
  return std::any_of(resources.begin(), resources.end(), [](const Json& resource) {
    return string_member(resource, "name") == cluster_training_runtime_type().plural;
  });
}

std::vector<Document> read_cluster_runtimes(KubeClient* client, const std::string& name_space) {
  std::vector<Document> out;
  add_runtimes(client, cluster_training_runtime_type(), "", &out);
  add_runtimes(client, training_runtime_type(), name_space, &out);
  return out;
}

std::vector<std::string> cluster_runtime_notes(const RenderResult& rendered,
                                               const std::vector<Document>& cluster_runtimes) {
  std::set<std::string> referenced;
  for (const Document& document : rendered.documents)
    if (is_trainjob_document(document) || is_optimization_job_document(document))
      referenced.insert(runtime_ref_name(document));
  for (const Document& document : rendered.documents)
    if (is_runtime_document(document)) referenced.erase(document.name());  // the inputs win
  std::vector<std::string> notes;
  for (const Document& runtime : cluster_runtimes) {
    if (referenced.count(runtime.name()) == 0) continue;
    bool built_in =
        runtime.kind() == kClusterTrainingRuntime && has_embedded_runtime_named(runtime.name());
    notes.push_back(runtime.kind() + " \"" + runtime.name() + "\": using the cluster's" +
                    (built_in ? ", not the built-in one of that name" : ""));
  }
  return notes;
}

std::vector<Document> runtimes_from_cluster(const std::string& mode, KubeClient* client,
                                            const std::string& name_space) {
  if (mode != "true" && mode != "auto") return {};
  if (!cluster_serves_runtimes(client)) {
    if (mode == "auto") return {};
    throw KubeError(
        "--runtimes-from-cluster: the cluster does not serve trainer.kubeflow.org/v1alpha1 "
        "clustertrainingruntimes (Kubeflow Trainer's CRDs are not installed)");
  }
  try {
    return read_cluster_runtimes(client, name_space);
  } catch (const KubeError& e) {
    // A user allowed only their namespace may not list the cluster-wide runtimes: by
    // itself, submit goes on with the built-in ones and says so.
    if (mode != "auto" || e.http_status() != 403) throw;
    std::fprintf(stderr,
                 "note: the cluster's runtimes are not readable, using the built-in ones: %s\n",
                 e.what());
    return {};
  }
}

void report_cluster_runtimes(const RenderResult& rendered,
                             const std::vector<Document>& cluster_runtimes) {
  for (const std::string& note : cluster_runtime_notes(rendered, cluster_runtimes))
    std::fprintf(stderr, "note: %s\n", note.c_str());
}

}  // namespace trainjob
