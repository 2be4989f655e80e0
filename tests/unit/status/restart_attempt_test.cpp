// Whole-job restart, the pure part: the attempt and budget the Jobs carry, a Job as it is
// created again for the next attempt, and what the restart line names.
#include "status/restart_attempt.h"

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "model/vocabulary.h"

using namespace trainjob;

namespace {

Json job(const std::string& attempt, const std::string& max_restarts) {
  Json out = Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
    "metadata": {"name": "r-node-0", "namespace": "team", "uid": "u1", "resourceVersion": "7",
                 "creationTimestamp": "2026-11-28T16:00:00Z", "managedFields": [{}],
                 "labels": {}, "annotations": {}},
    "spec": {"parallelism": 4, "completions": 4, "completionMode": "Indexed",
             "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u1"}},
             "template": {"metadata": {"labels": {
                 "batch.kubernetes.io/controller-uid": "u1", "controller-uid": "u1",
                 "batch.kubernetes.io/job-name": "r-node-0", "job-name": "r-node-0",
                 "jobset.sigs.k8s.io/jobset-name": "r"}},
               "spec": {"restartPolicy": "Never", "containers": [{"name": "node"}]}}},
    "status": {"failed": 1}})");
  if (!attempt.empty()) {
    out["metadata"]["labels"][kRestartAttemptKey] = attempt;
    out["spec"]["template"]["metadata"]["labels"][kRestartAttemptKey] = attempt;
  }
  if (!max_restarts.empty()) out["metadata"]["annotations"][kMaxRestartsAnnotation] = max_restarts;
  return out;
}

}  // namespace

TEST_CASE("restart budget: the highest attempt and maxRestarts of the Jobs") {
  RestartBudget budget = restart_budget_of({job("0", "2"), job("1", "2")});
  CHECK(budget.attempt == 1);
  CHECK(budget.max_restarts == 2);
  CHECK(budget.restarts_left());
  CHECK_FALSE(restart_budget_of({job("2", "2")}).restarts_left());
}

TEST_CASE("restart budget: Jobs without the annotation never restart") {
  RestartBudget budget = restart_budget_of({job("0", "")});
  CHECK(budget.max_restarts == 0);
  CHECK_FALSE(budget.restarts_left());
  CHECK_FALSE(restart_budget_of({}).restarts_left());
}

TEST_CASE("restart budget: a value that is no count counts as 0") {
  CHECK(restart_budget_of({job("x", "-1")}).attempt == 0);
  CHECK(restart_budget_of({job("x", "-1")}).max_restarts == 0);
  CHECK(restart_budget_of({job("1", "99999999999")}).max_restarts == 0);
}

TEST_CASE("job for attempt: JobSet's label and annotation on the Job and its pods") {
  Json next = job_for_attempt(job("0", "1"), 1);
  for (const Json* metadata : {&next["metadata"], &next["spec"]["template"]["metadata"]}) {
    CHECK((*metadata)["labels"][kRestartAttemptKey] == "1");
    CHECK((*metadata)["annotations"][kRestartAttemptKey] == "1");
  }
  CHECK(next["metadata"]["annotations"][kMaxRestartsAnnotation] == "1");
  CHECK(next["spec"]["template"]["metadata"]["labels"]["jobset.sigs.k8s.io/jobset-name"] == "r");
  CHECK(next["spec"]["parallelism"] == 4);
}

TEST_CASE("job for attempt: what the API server and the Job controller added is dropped") {
  Json next = job_for_attempt(job("0", "1"), 1);
  CHECK(next["apiVersion"] == "batch/v1");
  CHECK(next["kind"] == "Job");
  CHECK(next["metadata"]["name"] == "r-node-0");
  CHECK(next["metadata"]["namespace"] == "team");
  for (const char* key : {"uid", "resourceVersion", "creationTimestamp", "managedFields"})
    CHECK_FALSE(next["metadata"].contains(key));
  CHECK_FALSE(next.contains("status"));
  CHECK_FALSE(next["spec"].contains("selector"));
  const Json& labels = next["spec"]["template"]["metadata"]["labels"];
  for (const char* key : {"controller-uid", "batch.kubernetes.io/controller-uid", "job-name",
                          "batch.kubernetes.io/job-name"})
    CHECK_FALSE(labels.contains(key));
}

TEST_CASE("job for attempt: a Job as rendered (no status, no selector) only changes attempt") {
  Json rendered = job("0", "1");
  rendered["metadata"].erase("uid");
  rendered["metadata"].erase("resourceVersion");
  rendered["metadata"].erase("creationTimestamp");
  rendered["metadata"].erase("managedFields");
  rendered.erase("status");
  rendered["spec"].erase("selector");
  for (const char* key : {"controller-uid", "batch.kubernetes.io/controller-uid", "job-name",
                          "batch.kubernetes.io/job-name"})
    rendered["spec"]["template"]["metadata"]["labels"].erase(key);
  rendered["spec"]["template"]["metadata"]["annotations"][kRestartAttemptKey] = "0";
  rendered["metadata"]["annotations"][kRestartAttemptKey] = "0";
  CHECK(job_for_attempt(rendered, 0) == rendered);
}

TEST_CASE("drop older attempts: the Jobs and pods of earlier attempts go, the rest stay") {
  std::vector<Json> objects = {job("0", "1"), job("1", "1"), job("", "")};
  drop_older_attempts(0, &objects);
  CHECK(objects.size() == 3);
  drop_older_attempts(1, &objects);
  REQUIRE(objects.size() == 1);
  CHECK(objects[0]["metadata"]["labels"][kRestartAttemptKey] == "1");
}

TEST_CASE("failure cause: the first failed pod, by name, node and reason") {
  TrainJobStatus status;
  status.message = "Job r-node-0 failed: BackoffLimitExceeded: Job has reached the backoff limit";
  NodeStatus running;
  running.pod = "r-node-0-0-abcde";
  running.label = "node-0";
  running.phase = JobPhase::kRunning;
  NodeStatus failed;
  failed.pod = "r-node-0-2-fghij";
  failed.label = "node-2";
  failed.phase = JobPhase::kFailed;
  failed.reason = "Error (exit code 1)";
  status.nodes = {running, failed};
  CHECK(failure_cause(status) == "pod r-node-0-2-fghij (node-2): Error (exit code 1)");
  status.nodes = {running};
  CHECK(failure_cause(status) == status.message);  // its deadline passed, say
}

TEST_CASE("restarts text: one restart, two restarts") {
  CHECK(restarts_text(1) == "1 restart");
  CHECK(restarts_text(2) == "2 restarts");
  CHECK(restarts_text(0) == "0 restarts");
}

TEST_CASE("failed reason: JobSet's, ReachedMaxRestarts once the last restart failed") {
  TrainJobStatus status;
  CHECK(failed_reason(status) == "FailedJobs");
  status.max_restarts = 2;
  status.restart_attempt = 1;
  CHECK(failed_reason(status) == "FailedJobs");  // restarts left: nobody restarted it yet
  status.restart_attempt = 2;
  CHECK(failed_reason(status) == "ReachedMaxRestarts");
  status.reason = "DeadlineExceeded";
  CHECK(failed_reason(status) == "DeadlineExceeded");
}
