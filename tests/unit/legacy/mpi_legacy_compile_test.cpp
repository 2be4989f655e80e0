#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "diag/diagnostic.h"
#include "legacy/legacy_compile.h"
#include "load/yaml_loader.h"

namespace {

constexpr const char* kMpiJob = R"(apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: pi
spec:
  mpiReplicaSpecs:
    Launcher:
      template:
        spec:
          containers:
          - name: launcher
            image: mpi-pi
    Worker:
      replicas: 1
      template:
        spec:
          containers:
          - name: worker
            image: mpi-pi
)";

std::vector<trainjob::Json> compile(bool generate_secrets, trainjob::Diagnostics* diagnostics) {
  std::vector<trainjob::Document> documents =
      trainjob::load_documents("mpijob.yaml", kMpiJob, diagnostics);
  REQUIRE(documents.size() == 1);
  trainjob::CompileOptions options;
  options.generate_secrets = generate_secrets;
  return trainjob::compile_legacy_job(documents[0], options, diagnostics);
}

const trainjob::Json* find_kind(const std::vector<trainjob::Json>& objects, const char* kind) {
  for (const trainjob::Json& object : objects) {
    if (object.value("kind", "") == kind) return &object;
  }
  return nullptr;
}

/// The render-wide warning that the launcher gets PRTE_MCA_* (mpi-operator#842): unlocated.
bool is_prte_warning(const trainjob::Diagnostic& diagnostic) {
  return diagnostic.severity == trainjob::Severity::kWarning && diagnostic.file.empty() &&
         diagnostic.message.find("mpi-operator#842") != std::string::npos;
}

}  // namespace

TEST_CASE("mpi v2beta1: --generate-secrets emits Secret J-ssh with a fresh key pair") {
  trainjob::Diagnostics diagnostics;
  std::vector<trainjob::Json> objects = compile(true, &diagnostics);
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(is_prte_warning(diagnostics.all()[0]));
  const trainjob::Json* secret = find_kind(objects, "Secret");
  REQUIRE(secret != nullptr);
  CHECK((*secret)["metadata"]["name"] == "pi-ssh");
  CHECK((*secret)["type"] == "kubernetes.io/ssh-auth");
  CHECK((*secret)["data"].contains("ssh-privatekey"));
  CHECK((*secret)["data"].contains("ssh-publickey"));
  CHECK((*secret)["metadata"]["annotations"]["kubectl-trainjob/create-only-if-absent"] == "true");
  // Two renders make two keys: the Secret is created only when absent, so pods keep theirs.
  std::vector<trainjob::Json> again = compile(true, &diagnostics);
  CHECK((*find_kind(again, "Secret"))["data"] != (*secret)["data"]);
}

TEST_CASE("mpi v2beta1: without --generate-secrets the Secret is referenced with a warning") {
  trainjob::Diagnostics diagnostics;
  std::vector<trainjob::Json> objects = compile(false, &diagnostics);
  CHECK(find_kind(objects, "Secret") == nullptr);
  CHECK(!diagnostics.has_errors());
  CHECK(diagnostics.all().size() == 2);  // the Secret's and the PRTE one
  CHECK(objects.size() == 4);            // Service, ConfigMap, launcher Job, one worker Job
}
