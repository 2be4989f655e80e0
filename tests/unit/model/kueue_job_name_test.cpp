// What every compiled kind shares when it reads a job: its Kueue labels, the warning for a
// suspended job no queue admits, and metadata.name (generateName refused).
#include <doctest/doctest.h>

#include "load/yaml_loader.h"
#include "model/job_name.h"
#include "model/kueue_labels.h"

namespace trainjob {
namespace {

Document kueue_test_document(const std::string& yaml) {
  Diagnostics loading;
  std::vector<Document> documents = load_documents("job.yaml", yaml, &loading);
  REQUIRE(documents.size() == 1);
  return documents[0];
}

TEST_CASE("kueue labels: queue name and priority class, nothing else") {
  Document job = kueue_test_document(
      "metadata:\n  labels:\n    kueue.x-k8s.io/queue-name: main\n"
      "    kueue.x-k8s.io/priority-class: high\n    team: vision\n");
  Json labels = kueue_job_labels(job.value);
  CHECK(labels.size() == 2);
  CHECK(labels["kueue.x-k8s.io/queue-name"] == "main");
  CHECK(labels["kueue.x-k8s.io/priority-class"] == "high");
  CHECK(kueue_job_labels(kueue_test_document("metadata: {name: a}\n").value).empty());
  CHECK(kueue_job_labels(kueue_test_document("metadata: {labels: [x]}\n").value).empty());
}

TEST_CASE("kueue labels: a suspended job warns only without a queue") {
  Document queued = kueue_test_document(
      "metadata:\n  labels: {kueue.x-k8s.io/queue-name: main}\nspec: {suspend: true}\n");
  Document parked = kueue_test_document("metadata: {name: p}\nspec: {suspend: true}\n");
  Diagnostics found;
  warn_jobs_suspended_without_queue(FieldReader(queued, &found), "spec.suspend", true, "q");
  warn_jobs_suspended_without_queue(FieldReader(parked, &found), "spec.suspend", false, "p");
  CHECK(found.all().empty());
  warn_jobs_suspended_without_queue(FieldReader(parked, &found), "spec.suspend", true, "p");
  REQUIRE(found.all().size() == 1);
  CHECK(found.all()[0].severity == Severity::kWarning);
  CHECK(found.all()[0].path == "spec.suspend");
  CHECK(found.all()[0].message.find("`kubectl trainjob resume p`") != std::string::npos);
}

TEST_CASE("job name: metadata.name, or why generateName is not enough") {
  Diagnostics found;
  Document named = kueue_test_document("metadata: {name: a, generateName: b-}\n");
  CHECK(read_job_name(FieldReader(named, &found), "missing") == std::optional<std::string>("a"));
  CHECK(found.all().empty());
  Document generated = kueue_test_document("metadata: {generateName: llm-}\n");
  CHECK_FALSE(read_job_name(FieldReader(generated, &found), "missing"));
  REQUIRE(found.all().size() == 1);
  CHECK(found.all()[0].path == "metadata.generateName");
  CHECK(found.all()[0].message.find("set metadata.name (e.g. \"llm-1\")") != std::string::npos);
  Diagnostics none;
  CHECK_FALSE(read_job_name(FieldReader(kueue_test_document("metadata: {}\n"), &none), "gone"));
  REQUIRE(none.all().size() == 1);
  CHECK(none.all()[0].path == "metadata.name");
  CHECK(none.all()[0].message == "gone");
}

}  // namespace
}  // namespace trainjob
