#include "render/steps/job_rules.h"

#include <set>
#include <string>

namespace trainjob {
namespace {

bool check_one_of(const FieldReader& rt, const Field& field,
                  std::initializer_list<const char*> allowed) {
  if (!field || !field.value->is_string()) return true;
  std::string expected;
  for (const char* value : allowed) {
    if (*field.value == value) return true;
    expected += std::string(expected.empty() ? "" : ", ") + value;
  }
  rt.mismatch(field, "one of " + expected);
  return false;
}

bool check_not_negative(const FieldReader& rt, const Field& field) {
  if (!field || !field.value->is_number_integer() || field.value->get<int64_t>() >= 0) return true;
  rt.mismatch(field, "an integer ≥ 0");
  return false;
}

bool check_pull_policies(const FieldReader& rt, const Field& pod_spec) {
  bool ok = true;
  for (const char* list : {"containers", "initContainers"}) {
    Field containers = pod_spec[list];
    if (!containers || !containers.value->is_array()) continue;
    for (size_t i = 0; i < containers.value->size(); ++i) {
      ok = check_one_of(rt, containers.at(i)["imagePullPolicy"],
                        {"Always", "IfNotPresent", "Never"}) &&
           ok;
    }
  }
  return ok;
}

}  // namespace

bool check_job_template(const FieldReader& rt, const Field& job_template) {
  Field spec = job_template["spec"];
  Field pod_spec = spec["template"]["spec"];
  // A Job's pods may not restart Always: the Job could never complete.
  bool ok = check_one_of(rt, pod_spec["restartPolicy"], {"OnFailure", "Never"});
  ok = check_pull_policies(rt, pod_spec) && ok;
  for (const char* count :
       {"backoffLimit", "parallelism", "completions", "ttlSecondsAfterFinished"}) {
    ok = check_not_negative(rt, spec[count]) && ok;
  }
  return ok;
}

bool check_job_order(const FieldReader& rt, const Field& jobset_spec) {
  Field jobs = jobset_spec["replicatedJobs"];
  if (!jobs || !jobs.value->is_array()) return true;
  bool in_order = jobset_spec["startupPolicy"]["startupPolicyOrder"] &&
                  *jobset_spec["startupPolicy"]["startupPolicyOrder"].value == "InOrder";
  std::set<std::string> earlier;
  bool ok = true;
  for (size_t i = 0; i < jobs.value->size(); ++i) {
    Field depends_on = jobs.at(i)["dependsOn"];
    if (depends_on && depends_on.value->is_array()) {
      if (in_order) {
        rt.error(depends_on.path(), "dependsOn cannot be used with startupPolicy InOrder");
        ok = false;
      }
      for (size_t d = 0; d < depends_on.value->size(); ++d) {
        std::string name = string_member((*depends_on.value)[d], "name");
        if (earlier.count(name) == 0) {
          rt.error(
              depends_on.at(d)["name"].path(),
              "a job can only depend on a replicated job listed before it, found \"" + name + "\"");
          ok = false;
        }
      }
    }
    earlier.insert(string_member(*jobs.at(i).value, "name"));
  }
  return ok;
}

}  // namespace trainjob
