// kubeconfig loading and merging, and resolution to a connection, as kubectl does them.
#include <doctest/doctest.h>

#include "../../support/kube_fakes.h"
#include "crypto/base64.h"
#include "kube/kube_error.h"
#include "kube/kubeconfig.h"
#include "kube/rest_config.h"
#include "util/duration.h"

using namespace trainjob;

namespace {

const char kFirst[] = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev
  cluster: {server: "https://dev.example:6443/", certificate-authority: ca.pem}
contexts:
- name: dev
  context: {cluster: dev, user: red, namespace: team}
users:
- name: red
  user: {token: first-token}
)";

const char kSecond[] = R"(apiVersion: v1
kind: Config
current-context: prod
clusters:
- name: dev
  cluster: {server: "https://ignored.example"}
- name: prod
  cluster: {server: "https://prod.example", insecure-skip-tls-verify: true}
contexts:
- name: prod
  context: {cluster: prod, user: blue}
users:
- name: red
  user: {token: second-token, client-certificate: c.pem}
- name: blue
  user:
    client-certificate-data: Y2VydA==
    client-key-data: a2V5
)";

FakeEnvironment two_files() {
  FakeEnvironment env;
  env.variables["KUBECONFIG"] = "/a/config::/b/config:/a/config:/missing";
  env.files["/a/config"] = kFirst;
  env.files["/b/config"] = kSecond;
  env.files["/a/ca.pem"] = "CA";
  return env;
}

}  // namespace

TEST_CASE("KUBECONFIG: split, empty and repeated entries dropped, missing files skipped") {
  FakeEnvironment env = two_files();
  CHECK(kubeconfig_paths("", env) ==
        std::vector<std::string>{"/a/config", "/b/config", "/missing"});
  Kubeconfig config = load_kubeconfig("", env);
  CHECK(config.files == std::vector<std::string>{"/a/config", "/b/config"});
}

TEST_CASE(
    "merge: the first file defining a named entry wins it whole; first current-context wins") {
  FakeEnvironment env = two_files();
  Kubeconfig config = load_kubeconfig("", env);
  CHECK(config.current_context == "dev");
  CHECK(string_member(config.clusters["dev"].value, "server") == "https://dev.example:6443/");
  // The second file's `red` has a client-certificate the first lacks: still ignored.
  CHECK_FALSE(config.users["red"].value.contains("client-certificate"));
  CHECK(config.clusters.count("prod") == 1);
  CHECK(config.users["blue"].origin_file == "/b/config");
}

TEST_CASE("--kubeconfig: only that file, and it must exist") {
  FakeEnvironment env = two_files();
  CHECK(kubeconfig_paths("/b/config", env) == std::vector<std::string>{"/b/config"});
  CHECK(load_kubeconfig("/b/config", env).current_context == "prod");
  CHECK_THROWS_WITH_AS(load_kubeconfig("/nope", env), doctest::Contains("/nope: no such file"),
                       KubeError);
}

TEST_CASE("without KUBECONFIG: ~/.kube/config; a malformed file is an error naming it") {
  FakeEnvironment env;
  env.variables["HOME"] = "/home/u";
  CHECK(kubeconfig_paths("", env) == std::vector<std::string>{"/home/u/.kube/config"});
  env.files["/home/u/.kube/config"] = "clusters: [unclosed";
  CHECK_THROWS_WITH_AS(load_kubeconfig("", env),
                       doctest::Contains("error loading config file \"/home/u/.kube/config\""),
                       KubeError);
}

TEST_CASE("resolve: context, namespace, CA relative to the defining file, trailing / dropped") {
  FakeEnvironment env = two_files();
  Kubeconfig config = load_kubeconfig("", env);
  ConnectionFlags flags;
  RestConfig rest = resolve_rest_config(config, flags, env);
  CHECK(rest.server == "https://dev.example:6443");
  CHECK(rest.tls.ca_pem == "CA");
  CHECK(rest.token == "first-token");
  CHECK(rest.name_space == "team");
  CHECK(rest.context_name == "dev");
  flags.name_space = "other";
  CHECK(resolve_rest_config(config, flags, env).name_space == "other");
}

TEST_CASE("resolve: --context, --user, --cluster overrides, and kubectl's errors") {
  FakeEnvironment env = two_files();
  Kubeconfig config = load_kubeconfig("", env);
  ConnectionFlags flags;
  flags.context = "prod";
  RestConfig rest = resolve_rest_config(config, flags, env);
  CHECK(rest.tls.insecure_skip_verify);
  CHECK(rest.tls.client_cert_pem == "cert");
  CHECK(rest.tls.client_key_pem == "key");
  CHECK(rest.name_space == "default");
  flags.user = "red";
  CHECK(resolve_rest_config(config, flags, env).token == "first-token");
  flags.cluster = "dev";
  CHECK(resolve_rest_config(config, flags, env).server == "https://dev.example:6443");
  flags.context = "nope";
  CHECK_THROWS_WITH_AS(resolve_rest_config(config, flags, env), "context \"nope\" does not exist",
                       KubeError);
  flags.context = "prod";
  flags.user = "green";
  CHECK_THROWS_WITH_AS(resolve_rest_config(config, flags, env),
                       "auth info \"green\" does not exist", KubeError);
}

TEST_CASE("resolve: auth methods that cannot work are refused with a reason") {
  FakeEnvironment env;
  Kubeconfig config;
  Json document = Json::parse(R"({"current-context": "c",
    "clusters": [{"name": "k", "cluster": {"server": "https://k"}}],
    "contexts": [{"name": "c", "context": {"cluster": "k", "user": "u"}}],
    "users": [{"name": "u", "user": {"auth-provider": {"name": "gcp"}}}]})");
  merge_kubeconfig_file("/k/config", document, &config);
  CHECK_THROWS_WITH_AS(resolve_rest_config(config, {}, env),
                       doctest::Contains("auth-provider \"gcp\" is not supported"), KubeError);
  config.users["u"].value = Json::parse(R"({"client-certificate-data": "Y2VydA=="})");
  CHECK_THROWS_WITH_AS(
      resolve_rest_config(config, {}, env),
      doctest::Contains("client-certificate and client-key must be given together"), KubeError);
  config.users["u"].value = Json::parse(
      R"({"exec": {"command": "aws", "apiVersion": "client.authentication.k8s.io/v1"}})");
  CHECK_THROWS_WITH_AS(resolve_rest_config(config, {}, env),
                       doctest::Contains("interactiveMode must be specified"), KubeError);
  config.users["u"].value = Json::parse(
      R"({"exec": {"command": "./bin/plugin", "apiVersion": "client.authentication.k8s.io/v1beta1", "args": ["a"]}})");
  RestConfig rest = resolve_rest_config(config, {}, env);
  REQUIRE(rest.exec);
  CHECK(rest.exec->command == "/k/./bin/plugin");
  CHECK(rest.exec->interactive_mode == "IfAvailable");
}

TEST_CASE("in-cluster fallback only when there is no configuration at all") {
  FakeEnvironment env;
  env.variables["KUBERNETES_SERVICE_HOST"] = "fd00::1";
  env.variables["KUBERNETES_SERVICE_PORT"] = "443";
  env.files["/var/run/secrets/kubernetes.io/serviceaccount/token"] = "sa-token\n";
  env.files["/var/run/secrets/kubernetes.io/serviceaccount/namespace"] = "jobs";
  env.files["/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"] = "CA";
  RestConfig rest = resolve_rest_config(Kubeconfig{}, {}, env);
  CHECK(rest.in_cluster);
  CHECK(rest.server == "https://[fd00::1]:443");
  CHECK(rest.name_space == "jobs");
  CHECK(rest.token_file == "/var/run/secrets/kubernetes.io/serviceaccount/token");
  env.variables["POD_NAMESPACE"] = "from-env";
  CHECK(resolve_rest_config(Kubeconfig{}, {}, env).name_space == "from-env");
  env.variables.erase("KUBERNETES_SERVICE_HOST");
  CHECK_THROWS_WITH_AS(resolve_rest_config(Kubeconfig{}, {}, env),
                       doctest::Contains("no configuration has been provided"), KubeError);
}

TEST_CASE("--request-timeout: seconds or Go durations") {
  CHECK(parse_duration("0") == 0.0);
  CHECK(parse_duration("30") == 30.0);
  CHECK(parse_duration("1m30s") == 90.0);
  CHECK(parse_duration("500ms") == 0.5);
  CHECK(parse_duration("2h") == 7200.0);
  CHECK_FALSE(parse_duration("ten"));
  CHECK_FALSE(parse_duration("5d"));
  CHECK_FALSE(parse_duration(""));
}

TEST_CASE("base64 round trip") {
  for (const std::string& text :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    CHECK(decode_base64(encode_base64(text)) == text);
  }
  CHECK(decode_base64("aGVs\nbG8=") == std::string("hello"));
  CHECK_FALSE(decode_base64("not*base64"));
}
