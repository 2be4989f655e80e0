// What `status` reads from Kueue: each queued Job's Workload (by owner uid), why it waits, and
// its place in the LocalQueue, from the visibility API or from the pending Workloads' order.
#include "status/kueue_status.h"

#include <doctest/doctest.h>

namespace trainjob {
namespace {

Json kueue_test_job(const std::string& name, const std::string& uid) {
  return Json::parse(R"({"metadata": {"name": ")" + name + R"(", "uid": ")" + uid + R"("}})");
}

/// A Workload of Job `uid` in LocalQueue q; `reserved` says whether quota is reserved.
Json kueue_test_workload(const std::string& name, const std::string& uid, bool reserved,
                         const std::string& created, int priority = 0) {
  Json workload = Json::parse(R"({"metadata": {"ownerReferences": [{"kind": "Job"}]},
    "spec": {"queueName": "q"}, "status": {"conditions": []}})");
  workload["metadata"]["name"] = name;
  workload["metadata"]["creationTimestamp"] = created;
  workload["metadata"]["ownerReferences"][0]["uid"] = uid;
  workload["spec"]["priority"] = priority;
  Json quota = {{"type", "QuotaReserved"}, {"status", reserved ? "True" : "False"}};
  if (!reserved) {
    quota["reason"] = "Pending";
    quota["message"] = "couldn't assign flavors to pod set main: insufficient unused quota";
  }
  workload["status"]["conditions"].push_back(quota);
  if (reserved)
    workload["status"]["conditions"].push_back({{"type", "Admitted"}, {"status", "True"}});
  return workload;
}

TEST_CASE("kueue status: a Job's Workload by owner uid, why it waits") {
  std::vector<Json> jobs = {kueue_test_job("a-launcher", "u1"), kueue_test_job("a-node-0", "u2")};
  std::vector<Json> workloads = {
      kueue_test_workload("job-a-node-0-x", "u2", false, "2026-11-28T10:00:01Z"),
      kueue_test_workload("job-other", "u9", false, "2026-11-28T10:00:00Z"),
      kueue_test_workload("job-a-launcher-y", "u1", true, "2026-11-28T10:00:00Z")};
  std::vector<KueueWorkloadStatus> found = kueue_workloads_of(jobs, workloads);
  REQUIRE(found.size() == 2);
  CHECK(found[0].job == "a-launcher");
  CHECK(found[0].admitted);
  CHECK(found[0].reason.empty());
  CHECK(found[1].workload == "job-a-node-0-x");
  CHECK(!found[1].admitted);
  CHECK(found[1].reason == "Pending");
  CHECK(kueue_line(found[0]) ==
        "Kueue: Workload job-a-launcher-y of Job a-launcher: admitted in LocalQueue q");
  found[1].position = 2;
  found[1].position_source = "the queue's pending Workloads";
  CHECK(kueue_line(found[1]) ==
        "Kueue: Workload job-a-node-0-x of Job a-node-0: pending in LocalQueue q (position 2, from "
        "the queue's pending Workloads): Pending: couldn't assign flavors to pod set main: "
        "insufficient unused quota");
}

TEST_CASE("kueue status: the position among pending Workloads, priority first, then age") {
  std::vector<Json> workloads = {
      kueue_test_workload("old", "u1", false, "2026-11-28T10:00:00Z"),
      kueue_test_workload("new", "u2", false, "2026-11-28T10:00:05Z"),
      kueue_test_workload("urgent", "u3", false, "2026-11-28T10:00:09Z", 100),
      kueue_test_workload("running", "u4", true, "2026-11-28T09:00:00Z")};
  CHECK(kueue_position_from_workloads("urgent", "q", workloads) == 1);
  CHECK(kueue_position_from_workloads("old", "q", workloads) == 2);
  CHECK(kueue_position_from_workloads("new", "q", workloads) == 3);
  CHECK(!kueue_position_from_workloads("running", "q", workloads));
  CHECK(!kueue_position_from_workloads("new", "other-queue", workloads));
}

TEST_CASE("kueue status: the visibility API's position is 0-based") {
  Json pending = Json::parse(R"({"items": [
    {"metadata": {"name": "w1"}, "positionInLocalQueue": 0},
    {"metadata": {"name": "w2"}, "positionInLocalQueue": 1}]})");
  CHECK(kueue_position_from_visibility("w2", pending) == 2);
  CHECK(!kueue_position_from_visibility("w3", pending));
  CHECK(!kueue_position_from_visibility("w1", Json::object()));
}

}  // namespace
}  // namespace trainjob
