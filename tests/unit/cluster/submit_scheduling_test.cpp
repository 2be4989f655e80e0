// gang_scheduling_refusal: what submit says when the server's dry run drops or refuses what
// gangs the pods (cluster/submit_scheduling.h).
#include "cluster/submit_scheduling.h"

#include <doctest/doctest.h>

using trainjob::ApplyResult;
using trainjob::gang_scheduling_refusal;
using trainjob::Json;

namespace {

ApplyResult answered(Json object) {
  ApplyResult result;
  result.ok = true;
  result.object = std::move(object);
  return result;
}

Json gang_job() {
  return Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
    "spec": {"scheduling": {"schedulingPolicy": {"gang": {}}},
             "template": {"spec": {"containers": []}}}})");
}

}  // namespace

TEST_CASE("gang_scheduling_refusal: a Job whose spec.scheduling the server kept passes") {
  CHECK(gang_scheduling_refusal(gang_job(), answered(gang_job())).empty());
}

TEST_CASE("gang_scheduling_refusal: a dropped spec.scheduling names the gate") {
  Json dropped = gang_job();
  dropped["spec"].erase("scheduling");
  std::string message = gang_scheduling_refusal(gang_job(), answered(dropped));
  CHECK(message.find("dropped spec.scheduling,") != std::string::npos);
  CHECK(message.find("WorkloadWithJob") != std::string::npos);
}

TEST_CASE("gang_scheduling_refusal: a dropped pod schedulingGroup names GenericWorkload") {
  Json job = gang_job();
  job["spec"].erase("scheduling");
  job["spec"]["template"]["spec"]["schedulingGroup"] = {{"podGroupName", "g"}};
  Json dropped = job;
  dropped["spec"]["template"]["spec"].erase("schedulingGroup");
  std::string message = gang_scheduling_refusal(job, answered(dropped));
  CHECK(message.find("schedulingGroup") != std::string::npos);
  CHECK(message.find("GenericWorkload") != std::string::npos);
  CHECK(gang_scheduling_refusal(job, answered(job)).empty());
}

TEST_CASE("gang_scheduling_refusal: dropped topology constraints name their gate") {
  Json workload = Json::parse(R"({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "Workload",
    "spec": {"podGroupTemplates": [{"name": "node", "schedulingPolicy": {"gang": {"minCount": 4}},
      "schedulingConstraints": {"topology": [{"key": "rack"}]}}]}})");
  Json answer = workload;
  answer["spec"]["podGroupTemplates"][0].erase("schedulingConstraints");
  answer["spec"]["podGroupTemplates"][0]["disruptionMode"] = {{"single", Json::object()}};
  std::string message = gang_scheduling_refusal(workload, answered(answer));
  CHECK(message.find("dropped spec.podGroupTemplates[0].schedulingConstraints") !=
        std::string::npos);
  CHECK(message.find("TopologyAwareWorkloadScheduling") != std::string::npos);
  // Defaults the server adds beside what was sent are no loss.
  Json defaulted = workload;
  defaulted["spec"]["podGroupTemplates"][0]["disruptionMode"] = {{"single", Json::object()}};
  CHECK(gang_scheduling_refusal(workload, answered(defaulted)).empty());
}

TEST_CASE("gang_scheduling_refusal: a Workload the server does not serve (404)") {
  Json workload = {{"apiVersion", "scheduling.k8s.io/v1beta1"}, {"kind", "Workload"}};
  ApplyResult not_found;
  not_found.status = 404;
  CHECK(gang_scheduling_refusal(workload, not_found).find("does not serve") != std::string::npos);
  not_found.namespace_missing = true;  // said once by submit, for every object
  CHECK(gang_scheduling_refusal(workload, not_found).empty());
  CHECK(gang_scheduling_refusal(workload, answered(workload)).empty());
}

TEST_CASE("gang_scheduling_refusal: other objects and refusals are left to submit") {
  Json plain = {{"apiVersion", "batch/v1"}, {"kind", "Job"}, {"spec", Json::object()}};
  CHECK(gang_scheduling_refusal(plain, answered(plain)).empty());
  ApplyResult refused;
  refused.status = 422;
  CHECK(gang_scheduling_refusal(gang_job(), refused).empty());
}
