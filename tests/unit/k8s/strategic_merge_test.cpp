#include "k8s/strategic_merge.h"

#include <doctest/doctest.h>

using trainjob::Json;
using trainjob::strategic_merge;

namespace {

Json merged(const char* target, const char* patch) {
  Json value = Json::parse(target);
  strategic_merge(&value, Json::parse(patch));
  return value;
}

}  // namespace

TEST_CASE("strategic_merge: containers merge by name, env by name, mounts by mountPath") {
  Json out = merged(
      R"({"containers":[{"name":"node","image":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
          "volumeMounts":[{"name":"x","mountPath":"/data"}]},{"name":"side","image":"s"}]})",
      R"({"containers":[{"name":"node","env":[{"name":"B","value":"override"},{"name":"C","value":"3"}],
          "volumeMounts":[{"name":"y","mountPath":"/data"},{"name":"z","mountPath":"/z"}]}]})");
  const Json& node = out["containers"][0];
  CHECK(node["image"] == "a");
  CHECK(
      node["env"] ==
      Json::parse(
          R"([{"name":"A","value":"1"},{"name":"B","value":"override"},{"name":"C","value":"3"}])"));
  CHECK(node["volumeMounts"] ==
        Json::parse(R"([{"name":"y","mountPath":"/data"},{"name":"z","mountPath":"/z"}])"));
  CHECK(out["containers"][1]["image"] == "s");
}

TEST_CASE("strategic_merge: tolerations and other unkeyed lists are replaced") {
  Json out = merged(R"({"tolerations":[{"key":"a"}],"containers":[{"name":"n","args":["x","y"]}]})",
                    R"({"tolerations":[{"key":"b"}],"containers":[{"name":"n","args":["z"]}]})");
  CHECK(out["tolerations"] == Json::parse(R"([{"key":"b"}])"));
  CHECK(out["containers"][0]["args"] == Json::parse(R"(["z"])"));
}

TEST_CASE("strategic_merge: maps merge per key, later wins, null changes nothing") {
  Json out = merged(R"({"nodeSelector":{"a":"1","b":"2"},"affinity":{"nodeAffinity":{"x":1}}})",
                    R"({"nodeSelector":{"b":"3","c":"4"},"affinity":null})");
  CHECK(out["nodeSelector"] == Json::parse(R"({"a":"1","b":"3","c":"4"})"));
  CHECK(out["affinity"] == Json::parse(R"({"nodeAffinity":{"x":1}})"));
}

TEST_CASE("strategic_merge: affinity merges recursively, inner term lists are replaced") {
  Json out = merged(
      R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
          {"nodeSelectorTerms":[{"matchExpressions":[{"key":"a"}]}]}},"podAffinity":{"p":1}}})",
      R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
          {"nodeSelectorTerms":[{"matchExpressions":[{"key":"b"}]}]}}}})");
  CHECK(out["affinity"]["podAffinity"]["p"] == 1);
  CHECK(out["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
           ["nodeSelectorTerms"] == Json::parse(R"([{"matchExpressions":[{"key":"b"}]}])"));
}

TEST_CASE("strategic_merge: volumes, imagePullSecrets and schedulingGates append new names") {
  Json out = merged(R"({"volumes":[{"name":"a","emptyDir":{}}],"imagePullSecrets":[{"name":"r"}]})",
                    R"({"volumes":[{"name":"b","configMap":{"name":"cm"}}],
                        "imagePullSecrets":[{"name":"r"},{"name":"s"}],
                        "schedulingGates":[{"name":"g"}]})");
  CHECK(out["volumes"].size() == 2);
  CHECK(out["volumes"][1]["configMap"]["name"] == "cm");
  CHECK(out["imagePullSecrets"].size() == 2);
  CHECK(out["schedulingGates"] == Json::parse(R"([{"name":"g"}])"));
}

TEST_CASE("strategic_merge: merge keys of the pod API") {
  CHECK(trainjob::patch_merge_key("containers") == "name");
  CHECK(trainjob::patch_merge_key("volumeMounts") == "mountPath");
  CHECK(trainjob::patch_merge_key("ports") == "containerPort");
  CHECK(trainjob::patch_merge_key("tolerations").empty());
  CHECK(trainjob::patch_merge_key("args").empty());
}
