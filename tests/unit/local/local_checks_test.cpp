// `run --local` refuses hostile input before it creates anything: a pod cap, names and
// paths that would leave the work directory, modes, and the host's system directories.
#include <doctest/doctest.h>

#include "local/plan/local_plan.h"
#include "local/plan/plan_checks.h"

namespace trainjob {
namespace {

Json job_with(const Json& spec, const Json& pod_spec) {
  Json job = Json{{"apiVersion", "batch/v1"},
                  {"kind", "Job"},
                  {"metadata", {{"name", "tj-node-0"}}},
                  {"spec", spec}};
  job["spec"]["template"]["spec"] = pod_spec;
  return job;
}

Json node_spec(const Json& volumes) {
  return Json{{"volumes", volumes},
              {"containers", Json::array({{{"name", "node"}, {"command", {"true"}}}})}};
}

LocalOptions checks_options() {
  LocalOptions local;
  local.work_dir = "/work";
  local.master_port = "40000";
  return local;
}

std::string plan_error(const Json& job, const ConfigMapIndex& config_maps = {},
                       const LocalOptions& local = checks_options()) {
  LocalPlan plan;
  std::string error;
  if (plan_local_run({job}, config_maps, local, &plan, &error)) return "";
  return error;
}

TEST_CASE("pods are counted from completions, then parallelism, never below zero") {
  CHECK(job_pod_count(Json{{"spec", {{"completions", 3}, {"parallelism", 9}}}}) == 3);
  CHECK(job_pod_count(Json{{"spec", {{"parallelism", 9}}}}) == 9);
  CHECK(job_pod_count(Json{{"spec", Json::object()}}) == 1);
  CHECK(job_pod_count(Json{{"spec", {{"completions", -5}}}}) == 0);
  CHECK(add_pods(INT64_MAX - 1, 5) == INT64_MAX);
  CHECK(add_pods(2, 3) == 5);
}

TEST_CASE("more pods than --max-pods are refused before any pod is planned") {
  CHECK(pod_cap_problem(64, 64) == "");
  CHECK(pod_cap_problem(65, 64) ==
        "the inputs would run 65 pods on this machine, more than --max-pods 64 allows; lower "
        "numNodes, or raise --max-pods if this machine can run them");
  // Planned one by one, this many pods would run out of memory long before the end.
  Json huge = job_with(Json{{"completions", 2147483647}, {"parallelism", 2147483647}},
                       node_spec(Json::array()));
  huge["spec"]["template"]["spec"]["subdomain"] = "tj";
  CHECK(plan_error(huge).find("would run 2147483647 pods on this machine, more than --max-pods "
                              "64") != std::string::npos);
  std::vector<Json> two{huge, huge};
  CHECK(local_pod_count(two) == 4294967294);
  LocalOptions small = checks_options();
  small.max_pods = 2;
  CHECK(plan_error(job_with(Json{{"completions", 2}}, node_spec(Json::array())), {}, small) == "");
  CHECK(plan_error(job_with(Json{{"completions", 3}}, node_spec(Json::array())), {}, small) != "");
}

TEST_CASE("names written as one directory or file must be a single name") {
  CHECK(single_name_problem("script") == "");
  CHECK(single_name_problem("..x") == "");
  CHECK(single_name_problem("../../x") != "");
  CHECK(single_name_problem("a/b") == "a \"/\"; it must be a single name");
  CHECK(single_name_problem("/abs") != "");
  CHECK(single_name_problem("..") != "");
  CHECK(single_name_problem("") != "");
}

TEST_CASE("configMap items, keys and modes that would leave the volume are named") {
  Json config_map = Json::parse(R"J({"data": {"a.py": "x", "../../x": "y"}})J");
  Json plain = Json::parse(R"J({"name": "code"})J");
  CHECK(config_map_volume_problem(plain, nullptr) == "");
  CHECK(config_map_volume_problem(plain, &config_map) ==
        "ConfigMap key \"../../x\": a \"..\" path element; it must stay beneath its directory");
  Json items = Json::parse(R"J({"items": [{"key": "a.py", "path": "sub/a.py"},
      {"key": "a.py", "path": "../../../../x"}]})J");
  CHECK(config_map_volume_problem(items, &config_map) ==
        "items[1].path \"../../../../x\": a \"..\" path element; it must stay beneath its "
        "directory");
  items["items"][1]["path"] = "/abs/x";
  CHECK(config_map_volume_problem(items, &config_map) ==
        "items[1].path \"/abs/x\": an absolute path; it must be relative");
  items["items"][1]["path"] = "ok";
  CHECK(config_map_volume_problem(items, &config_map) == "");  // listed keys only
  items["items"][1]["mode"] = 04755;
  CHECK(config_map_volume_problem(items, &config_map) ==
        "items[1].mode: 2541 (04755 in octal) is outside 0 to 0777: setuid, setgid and sticky "
        "bits are refused");
  CHECK(config_map_volume_problem(Json{{"defaultMode", 2541}}, nullptr)
            .rfind("defaultMode: 2541", 0) == 0);
  CHECK(file_mode_problem(Json(0777)) == "");
  CHECK(file_mode_problem(Json(-1)) != "");
  CHECK(file_mode_problem(Json("0644")) == "not an integer");
}

TEST_CASE("the host's system directories are refused, however the path is spelt") {
  for (const char* path : {"/", "//", "/etc", "/etc/", "/etc/passwd", "/etc/../etc", "/./etc",
                           "/tmp/../etc", "/proc", "/proc/1/root", "/sys", "/dev", "/dev/shm"}) {
    CAPTURE(path);
    CHECK(host_path_refusal(path) != "");
  }
  for (const char* path : {"/etcetera", "/devices", "/home/user/data", "/tmp", "/srv/etc"}) {
    CAPTURE(path);
    CHECK(host_path_refusal(path) == "");
  }
  CHECK(host_path_refusal("/etc/ssl") == "a system directory (/etc or beneath)");
  CHECK(host_path_refusal("/") == "the root directory");
}

TEST_CASE("long values are cut in messages") {
  CHECK(quoted_value("abc") == "\"abc\"");
  std::string name(100000, 'x');
  CHECK(quoted_value(name) == "\"" + std::string(64, 'x') + "...\" (100000 characters)");
}

TEST_CASE("hostile volumes fail the plan naming the pod, the volume and the field") {
  Json escape = node_spec(Json::parse(R"J([{"name": "../../x", "emptyDir": {}}])J"));
  CHECK(plan_error(job_with(Json{{"completions", 1}}, escape)) ==
        "pod tj-node-0-0-local, volume \"../../x\" (spec.volumes[0]): name: a \"..\" path "
        "element; it must stay beneath its directory");
  Json etc = node_spec(Json::parse(R"J([{"name": "conf", "hostPath": {"path": "/etc"}}])J"));
  CHECK(plan_error(job_with(Json{{"completions", 1}}, etc)) ==
        "pod tj-node-0-0-local, volume \"conf\" (spec.volumes[0]): hostPath.path \"/etc\" is "
        "refused: a system directory (/etc) would be open to the pod; pass --allow-host-path "
        "to run it anyway");
  LocalOptions allowed = checks_options();
  allowed.allow_host_path = true;
  CHECK(plan_error(job_with(Json{{"completions", 1}}, etc), {}, allowed) == "");
  Json config_map = Json::parse(R"J({"data": {"a": "x"}})J");
  Json items = node_spec(Json::parse(R"J([{"name": "code", "configMap": {"name": "code",
      "defaultMode": 2541}}])J"));
  CHECK(plan_error(job_with(Json{{"completions", 1}}, items), {{"default/code", &config_map}})
            .find("volume \"code\" (spec.volumes[0]): configMap.defaultMode: 2541") !=
        std::string::npos);
  Json sub_path = node_spec(Json::parse(R"J([{"name": "s", "emptyDir": {}}])J"));
  sub_path["containers"][0]["volumeMounts"] =
      Json::parse(R"J([{"name": "s", "mountPath": "/s", "subPath": "../../x"}])J");
  CHECK(plan_error(job_with(Json{{"completions", 1}}, sub_path))
            .find("container node: volume \"s\": subPath \"../../x\": a \"..\"") !=
        std::string::npos);
}

TEST_CASE("configMap volumes and all-readOnly emptyDirs are read-only; readOnly hostPath warns") {
  Json spec = node_spec(Json::parse(R"J([{"name": "code", "configMap": {"name": "code"}},
      {"name": "ro", "emptyDir": {}}, {"name": "rw", "emptyDir": {}},
      {"name": "data", "hostPath": {"path": "/srv/data"}}])J"));
  spec["containers"][0]["volumeMounts"] = Json::parse(R"J([
      {"name": "code", "mountPath": "/code"}, {"name": "ro", "mountPath": "/ro", "readOnly": true},
      {"name": "rw", "mountPath": "/rw", "readOnly": true}, {"name": "rw", "mountPath": "/rw2"},
      {"name": "data", "mountPath": "/data", "readOnly": true}])J");
  Json config_map = Json::parse(R"J({"data": {"a": "x"}})J");
  LocalPlan plan;
  std::string error;
  REQUIRE(plan_local_run({job_with(Json{{"completions", 1}}, spec)},
                         {{"default/code", &config_map}}, checks_options(), &plan, &error));
  const LocalPod& pod = plan.stages.at(0).at(0);
  CHECK(pod.volumes.at(0).read_only);
  CHECK(pod.volumes.at(0).work_relative == "tj-node-0-0-local/code");
  CHECK(pod.volumes.at(1).read_only);
  CHECK_FALSE(pod.volumes.at(2).read_only);
  CHECK_FALSE(pod.volumes.at(3).read_only);
  CHECK(plan.warnings ==
        std::vector<std::string>{"pod tj-node-0-0-local, volume \"data\": readOnly is not "
                                 "enforced for a hostPath volume run locally; the pod can write "
                                 "to /srv/data"});
}

}  // namespace
}  // namespace trainjob
