// The namespace of the documents that come with the jobs (pipeline/companion_namespace) and
// the scope of kinds it is decided by (model/api_scope).
#include "pipeline/companion_namespace.h"

#include <doctest/doctest.h>

#include "k8s/api_scope.h"
#include "load/yaml_loader.h"

namespace trainjob {
namespace {

std::vector<Document> load(const std::string& yaml) {
  Diagnostics loading;
  std::vector<Document> documents = load_documents("in.yaml", yaml, &loading);
  REQUIRE_FALSE(loading.has_errors());
  return documents;
}

CompanionNamespaces noted(const std::vector<Document>& documents, const std::string& flag = "") {
  CompileOptions options;
  options.default_namespace = flag;
  CompanionNamespaces companions;
  for (const Document& document : documents)
    companions.note(document, options);
  return companions;
}

std::string pinned_namespace(const CompanionNamespaces& companions, const Document& document) {
  return string_member(json_member(companions.pinned_value(document), "metadata"), "namespace");
}

constexpr const char* kTrainJobInMl = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: t, namespace: ml}
spec: {runtimeRef: {name: torch-distributed}}
)";

TEST_CASE("api scope: groups and the kinds' scopes") {
  CHECK(api_group("v1").empty());
  CHECK(api_group("batch/v1") == "batch");
  CHECK(api_group("resource.nvidia.com/v1beta1") == "resource.nvidia.com");
  CHECK(is_builtin_group(""));
  CHECK(is_builtin_group("batch"));
  CHECK_FALSE(is_builtin_group("kubeflow.org"));
  CHECK(known_kind_scope("", "ConfigMap") == ObjectScope::kNamespaced);
  CHECK(known_kind_scope("resource.nvidia.com", "ComputeDomain") == ObjectScope::kNamespaced);
  struct Kind {
    const char* group;
    const char* kind;
  };
  for (const Kind& cluster :
       {Kind{"", "Namespace"}, Kind{"trainer.kubeflow.org", "ClusterTrainingRuntime"},
        Kind{"apiextensions.k8s.io", "CustomResourceDefinition"},
        Kind{"rbac.authorization.k8s.io", "ClusterRole"},
        Kind{"scheduling.k8s.io", "PriorityClass"}, Kind{"kubeflow.org", "Profile"}}) {
    CAPTURE(cluster.kind);
    CHECK(known_kind_scope(cluster.group, cluster.kind) == ObjectScope::kCluster);
  }
  // The same kind name in another group is not the table's.
  CHECK(known_kind_scope("example.com", "ConfigMap") == ObjectScope::kUnknown);
}

TEST_CASE("companion namespace: one job namespace is pinned on namespaced documents") {
  std::vector<Document> documents = load(std::string(kTrainJobInMl) + R"(---
apiVersion: v1
kind: ConfigMap
metadata: {name: script, labels: {a: b}}
---
apiVersion: v1
kind: Secret
metadata: {name: token, namespace: other}
---
apiVersion: v1
kind: Namespace
metadata: {name: ml}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: rt}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
)");
  CompanionNamespaces companions = noted(documents);
  CHECK(companions.job_namespace() == "ml");
  CHECK(pinned_namespace(companions, documents[1]) == "ml");
  // Written after the name, where kubectl prints it.
  const Json pinned = companions.pinned_value(documents[1]);
  const Json& metadata = pinned["metadata"];
  REQUIRE(metadata.is_object());
  CHECK(std::next(metadata.begin()).key() == "namespace");
  CHECK(pinned_namespace(companions, documents[2]) == "other");
  CHECK(pinned_namespace(companions, documents[3]).empty());
  CHECK(pinned_namespace(companions, documents[4]).empty());
  CHECK(pinned_namespace(companions, documents[5]).empty());
  CHECK(companions.keys_of("ConfigMap", "") == std::set<std::string>{"ml/script"});
  CHECK(companions.keys_of("ConfigMap", "", {"in.yaml"}).empty());
}

TEST_CASE("companion namespace: several, or a job without one, pin nothing") {
  std::vector<Document> two = load(std::string(kTrainJobInMl) + R"(---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: p, namespace: team-b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: script}
)");
  CompanionNamespaces companions = noted(two);
  CHECK(companions.job_namespace().empty());
  CHECK(pinned_namespace(companions, two[2]).empty());
  CHECK(companions.keys_of("ConfigMap", "fallback") == std::set<std::string>{"fallback/script"});

  std::vector<Document> unpinned = load(std::string(kTrainJobInMl) + R"(---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: u}
spec: {runtimeRef: {name: torch-distributed}}
)");
  CHECK(noted(unpinned).job_namespace().empty());
  // -n gives the namespace-less job one; a TFJob states `default` without either.
  CHECK(noted(unpinned, "ml").job_namespace() == "ml");
  std::vector<Document> tf = load(R"(apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf}
)");
  CHECK(noted(tf).job_namespace() == "default");
}

TEST_CASE("companion namespace: what jobs use and what companions provide") {
  Json job = Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
    "metadata": {"labels": {"kueue.x-k8s.io/queue-name": "q"}},
    "spec": {"template": {"spec": {
      "serviceAccountName": "sa",
      "imagePullSecrets": [{"name": "pull"}],
      "resourceClaims": [{"name": "c", "resourceClaimTemplateName": "rct"}],
      "volumes": [{"name": "v", "configMap": {"name": "cm"}},
                  {"name": "s", "secret": {"secretName": "sec"}},
                  {"name": "p", "persistentVolumeClaim": {"claimName": "pvc"}},
                  {"name": "j", "projected": {"sources": [{"configMap": {"name": "cm2"}}]}}],
      "initContainers": [{"name": "i", "envFrom": [{"secretRef": {"name": "sec2"}}]}],
      "containers": [{"name": "c", "env": [
        {"name": "E", "valueFrom": {"configMapKeyRef": {"name": "cm3", "key": "k"}}}]}]}}}})");
  std::set<ObjectRef> uses = namespaced_references({job});
  CHECK(uses == std::set<ObjectRef>{{"ConfigMap", "cm"},
                                    {"ConfigMap", "cm2"},
                                    {"ConfigMap", "cm3"},
                                    {"LocalQueue", "q"},
                                    {"PersistentVolumeClaim", "pvc"},
                                    {"ResourceClaimTemplate", "rct"},
                                    {"Secret", "pull"},
                                    {"Secret", "sec"},
                                    {"Secret", "sec2"},
                                    {"ServiceAccount", "sa"}});
  std::vector<Document> documents = load(R"(apiVersion: resource.nvidia.com/v1beta1
kind: ComputeDomain
metadata: {name: nvl}
spec: {channel: {resourceClaimTemplate: {name: rct}}}
---
apiVersion: example.com/v1
kind: ConfigMap
metadata: {name: cm}
)");
  CHECK(provided_references(documents[0]) ==
        std::vector<ObjectRef>{{"ResourceClaimTemplate", "rct"}});
  CHECK(provided_references(documents[1]).empty());
}

TEST_CASE("companion namespace: a companion in another namespace than the job using it") {
  std::vector<Document> documents = load(std::string(kTrainJobInMl) + R"(---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: team-a}
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: team-a}
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: ml}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: unused, namespace: team-a}
)");
  CompanionNamespaces companions = noted(documents);
  Json job = Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
    "metadata": {"name": "t-node-0", "namespace": "ml"},
    "spec": {"template": {"spec": {"volumes": [
      {"name": "a", "configMap": {"name": "cm"}}, {"name": "b", "secret": {"secretName": "sec"}}],
      "containers": [{"name": "node"}]}}}})");
  Diagnostics findings;
  companions.check_uses(documents[0], {job}, &findings);
  // The Secret has a namesake in ml, which is the one the job uses.
  REQUIRE(findings.all().size() == 1);
  const Diagnostic& warning = findings.all()[0];
  CHECK(warning.severity == Severity::kWarning);
  CHECK(warning.path == "metadata.namespace");
  CHECK(warning.pos.line == 8);
  CHECK(warning.message.find("ConfigMap cm names namespace \"team-a\", but TrainJob t") == 0);
  // A job whose objects state no namespace is applied wherever kubectl points: no finding.
  Json unpinned = job;
  unpinned["metadata"].erase("namespace");
  Diagnostics none;
  companions.check_uses(documents[0], {unpinned}, &none);
  CHECK(none.all().empty());
}

}  // namespace
}  // namespace trainjob
