// `run --local`: the kubelet's $(VAR) expansion and environment, and the local rewrites.
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "local/plan/expand.h"
#include "local/plan/local_plan.h"
#include "local/plan/pod_env.h"

namespace trainjob {
namespace {

std::string expand(const std::string& input) {
  static const std::map<std::string, std::string, std::less<>> vars = {
      {"VAR_A", "A"}, {"VAR_B", "B"}, {"VAR_EMPTY", ""}};
  return expand_references(input, [](std::string_view name) -> const std::string* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : &it->second;
  });
}

TEST_CASE("$(VAR) references expand as the kubelet expands them") {
  CHECK(expand("$(VAR_A)") == "A");
  CHECK(expand("___$(VAR_B)___") == "___B___");
  CHECK(expand("$(VAR_A)-$(VAR_A)") == "A-A");
  CHECK(expand("$(VAR_A)$(VAR_B)") == "AB");
  CHECK(expand("x$(VAR_EMPTY)y") == "xy");
  CHECK(expand("no references") == "no references");
}

TEST_CASE("$$ escapes, and what does not expand stays as written") {
  CHECK(expand("$$(VAR_A)") == "$(VAR_A)");
  CHECK(expand("$$$(VAR_A)") == "$A");
  CHECK(expand("$$$$(VAR_A)") == "$$(VAR_A)");
  CHECK(expand("f000-$$VAR_A") == "f000-$VAR_A");
  CHECK(expand("$(VAR_DNE)") == "$(VAR_DNE)");
  CHECK(expand("$()") == "$()");
  CHECK(expand("$(") == "$(");
  CHECK(expand("$(VAR_A") == "$(VAR_A");
  CHECK(expand("$$(VAR_A") == "$(VAR_A");
  CHECK(expand("$VAR_A") == "$VAR_A");
  CHECK(expand("$") == "$");
  CHECK(expand("a$") == "a$");
  CHECK(expand("$)") == "$)");
  CHECK(expand("$(VAR_$(VAR_A))") == "$(VAR_$(VAR_A))");
}

PodFacts facts() {
  PodFacts pod;
  pod.name = "job-node-0-1-local";
  pod.name_space = "team";
  pod.node_name = "localhost";
  pod.ip = "127.0.0.1";
  pod.annotations["batch.kubernetes.io/job-completion-index"] = "1";
  pod.labels["app"] = "demo";
  return pod;
}

EnvList env_of(const char* container, const ConfigMapIndex& maps = {}) {
  EnvList env;
  std::string error;
  REQUIRE(resolve_container_env(Json::parse(container), facts(), maps, &env, &error));
  return env;
}

std::string error_of(const char* container) {
  EnvList env;
  std::string error;
  CHECK_FALSE(resolve_container_env(Json::parse(container), facts(), {}, &env, &error));
  return error;
}

TEST_CASE("env values see only the variables defined before them") {
  EnvList env = env_of(R"J({"env": [
      {"name": "A", "value": "a"},
      {"name": "AB", "value": "$(A)-$(B)"},
      {"name": "B", "value": "b"},
      {"name": "A", "value": "again $(A)"}]})J");
  CHECK(env == EnvList{{"A", "again a"}, {"AB", "a-$(B)"}, {"B", "b"}});
}

TEST_CASE("fieldRef reads the pod's name, namespace, index annotation, labels and IP") {
  EnvList env = env_of(R"J({"env": [
      {"name": "RANK", "valueFrom": {"fieldRef": {"fieldPath":
          "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}},
      {"name": "APP", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['app']"}}},
      {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
      {"name": "NS", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
      {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
      {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}]})J");
  CHECK(env == EnvList{{"RANK", "1"},
                       {"APP", "demo"},
                       {"POD", "job-node-0-1-local"},
                       {"NS", "team"},
                       {"IP", "127.0.0.1"},
                       {"NODE", "localhost"}});
}

TEST_CASE("resourceFieldRef divides the container's own resources, rounding up") {
  EnvList env = env_of(R"J({"resources": {"limits": {"cpu": "1500m", "memory": "1Gi"}},
      "env": [
        {"name": "CPUS", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}},
        {"name": "MILLIS", "valueFrom": {"resourceFieldRef":
            {"resource": "limits.cpu", "divisor": "1m"}}},
        {"name": "MIB", "valueFrom": {"resourceFieldRef":
            {"resource": "limits.memory", "divisor": "1Mi"}}}]})J");
  CHECK(env == EnvList{{"CPUS", "2"}, {"MILLIS", "1500"}, {"MIB", "1024"}});
}

TEST_CASE("ConfigMap values come from the inputs; envFrom adds every key with its prefix") {
  Json map = Json::parse(R"J({"kind": "ConfigMap", "data": {"LR": "0.01", "EPOCHS": "5"}})J");
  ConfigMapIndex maps{{"team/settings", &map}};
  EnvList env = env_of(R"J({"envFrom": [{"configMapRef": {"name": "settings"}, "prefix": "T_"}],
      "env": [{"name": "LR", "valueFrom": {"configMapKeyRef": {"name": "settings", "key": "LR"}}},
              {"name": "GONE", "valueFrom": {"configMapKeyRef":
                  {"name": "other", "key": "x", "optional": true}}}]})J",
                       maps);
  CHECK(env == EnvList{{"T_LR", "0.01"}, {"T_EPOCHS", "5"}, {"LR", "0.01"}});
}

TEST_CASE("what cannot be resolved locally is an error naming the variable") {
  CHECK(error_of(R"J({"env": [{"name": "TOKEN", "valueFrom": {"secretKeyRef":
      {"name": "creds", "key": "token"}}}]})J") ==
        "env TOKEN: secretKeyRef creds/token cannot be read locally; Secrets exist only in the "
        "cluster");
  CHECK(error_of(R"J({"env": [{"name": "X", "valueFrom": {"fieldRef":
      {"fieldPath": "metadata.generateName"}}}]})J") ==
        "env X: fieldRef metadata.generateName cannot be resolved locally");
  CHECK(error_of(R"J({"env": [{"name": "M", "valueFrom": {"configMapKeyRef":
      {"name": "absent", "key": "k"}}}]})J") ==
        "env M: configMapKeyRef absent/k: the ConfigMap is not among the inputs");
  CHECK(error_of(R"J({"env": [{"name": "C", "valueFrom": {"resourceFieldRef":
      {"resource": "limits.cpu"}}}]})J")
            .find("is not set on the container") != std::string::npos);
}

TEST_CASE("mount paths are rewritten only where they stand on their own") {
  std::vector<LocalMount> mounts{{"/workspace", "/tmp/w"}, {"/workspace/data", "/tmp/d"}};
  CHECK(rewrite_paths("/workspace/train.py", mounts) == "/tmp/w/train.py");
  CHECK(rewrite_paths("--data=/workspace/data/x", mounts) == "--data=/tmp/d/x");
  CHECK(rewrite_paths("/workspace", mounts) == "/tmp/w");
  CHECK(rewrite_paths("/home/workspace/a /workspace2", mounts) == "/home/workspace/a /workspace2");
  CHECK(rewrite_paths("a:/workspace:b", mounts) == "a:/tmp/w:b");
}

TEST_CASE("pod DNS names become the loopback address, longer names first") {
  std::vector<std::string> hosts{"tj-node-0-0.tj", "tj-node-0-0.tj.default.svc.cluster.local"};
  CHECK(rewrite_hosts("tj-node-0-0.tj", hosts, "127.0.0.1") == "127.0.0.1");
  CHECK(rewrite_hosts("tcp://tj-node-0-0.tj:29500", hosts, "127.0.0.1") == "tcp://127.0.0.1:29500");
  CHECK(rewrite_hosts("tj-node-0-0.tj.default.svc.cluster.local", hosts, "127.0.0.1") ==
        "127.0.0.1");
  CHECK(rewrite_hosts("xtj-node-0-0.tj", hosts, "127.0.0.1") == "xtj-node-0-0.tj");
}

TEST_CASE("image repositories drop the tag and the digest, not a registry port") {
  CHECK(image_repository("ghcr.io/a/b:1.0") == "ghcr.io/a/b");
  CHECK(image_repository("localhost:5000/b") == "localhost:5000/b");
  CHECK(image_repository("b@sha256:abc") == "b");
  CHECK(image_repository("b") == "b");
}

}  // namespace
}  // namespace trainjob
