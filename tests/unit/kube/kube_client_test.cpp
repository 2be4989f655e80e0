// The client around each request: credentials, re-authentication on 401, retries, Status
// errors, warnings; all against a fake transport, clock and environment.
#include <doctest/doctest.h>

#include "../../support/kube_fakes.h"
#include "kube/api_status.h"
#include "kube/client.h"
#include "kube/credentials.h"
#include "kube/kube_error.h"

using namespace trainjob;

namespace {

RestConfig https_config() {
  RestConfig config;
  config.server = "https://api.example:6443";
  config.user_name = "red";
  config.context_name = "dev";
  return config;
}

std::string authorization(const HttpRequest& request) {
  for (const auto& [name, value] : request.headers)
    if (name == "Authorization") return value;
  return "";
}

std::string credential_json(const std::string& version, const std::string& token,
                            const std::string& expiry) {
  return R"({"apiVersion": ")" + version + R"(", "kind": "ExecCredential", "status": {"token": ")" +
         token + R"(", "expirationTimestamp": ")" + expiry + R"("}})";
}

ExecConfig exec_config(const std::string& api_version, const std::string& command,
                       std::vector<std::string> args, const std::string& interactive_mode) {
  ExecConfig exec;
  exec.api_version = api_version;
  exec.command = command;
  exec.args = std::move(args);
  exec.interactive_mode = interactive_mode;
  return exec;
}

}  // namespace

TEST_CASE("a static token is sent as a bearer token, only over https") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  RestConfig config = https_config();
  config.token = "abc";
  KubeClient client(config, &transport, &env, &clock);
  client.send("GET", "/api");
  CHECK(authorization(transport.requests[0]) == "Bearer abc");
  CHECK(transport.requests[0].url == "https://api.example:6443/api");
  config.server = "http://api.example";
  KubeClient plain(config, &transport, &env, &clock);
  plain.send("GET", "/api");
  CHECK(authorization(transport.requests[1]).empty());
}

TEST_CASE("a token file is read, then read again after a 401 (it may have rotated)") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  env.files["/t"] = "one\n";
  RestConfig config = https_config();
  config.token_file = "/t";
  KubeClient client(config, &transport, &env, &clock);
  client.send("GET", "/api");
  CHECK(authorization(transport.requests[0]) == "Bearer one");
  env.files["/t"] = "two";
  transport.responses.push_back(status_response(401, "Unauthorized", "Unauthorized"));
  client.send("GET", "/api");
  CHECK(authorization(transport.requests[2]) == "Bearer two");
}

TEST_CASE("exec plugin: run once, cached until expirationTimestamp, run again after") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  int runs = 0;
  env.on_run = [&](const ProcessRequest& request) {
    ++runs;
    CHECK(request.command == "/bin/creds");
    CHECK(request.args == std::vector<std::string>{"--cluster", "dev"});
    bool has_info = false;
    for (const auto& [name, value] : request.extra_env) {
      if (name == "KUBERNETES_EXEC_INFO") {
        has_info = true;
        CHECK(value.find("\"interactive\":false") != std::string::npos);
      }
    }
    CHECK(has_info);
    // 1,800,000,100 s after the epoch: 100 s after the fake clock's start.
    return ProcessResult{true, 0,
                         credential_json("client.authentication.k8s.io/v1",
                                         "t" + std::to_string(runs), "2027-01-15T08:01:40Z")};
  };
  RestConfig config = https_config();
  config.exec =
      exec_config("client.authentication.k8s.io/v1", "/bin/creds", {"--cluster", "dev"}, "Never");
  KubeClient client(config, &transport, &env, &clock);
  client.send("GET", "/a");
  client.send("GET", "/b");
  CHECK(runs == 1);
  CHECK(authorization(transport.requests[1]) == "Bearer t1");
  clock.time += 200;  // past the expiry
  client.send("GET", "/c");
  CHECK(runs == 2);
  CHECK(authorization(transport.requests[2]) == "Bearer t2");
}

TEST_CASE("exec plugin: a 401 re-runs it once; a second 401 is the answer") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  int runs = 0;
  env.on_run = [&](const ProcessRequest&) {
    ++runs;
    return ProcessResult{true, 0,
                         credential_json("client.authentication.k8s.io/v1beta1",
                                         "t" + std::to_string(runs), "2099-01-01T00:00:00Z")};
  };
  RestConfig config = https_config();
  config.exec = exec_config("client.authentication.k8s.io/v1beta1", "creds", {}, "IfAvailable");
  KubeClient client(config, &transport, &env, &clock);
  transport.responses.push_back(status_response(401, "Unauthorized", "Unauthorized"));
  CHECK(client.send("GET", "/a").status == 200);
  CHECK(runs == 2);
  CHECK(authorization(transport.requests[1]) == "Bearer t2");
  transport.responses.push_back(status_response(401, "Unauthorized", "Unauthorized"));
  transport.responses.push_back(status_response(401, "Unauthorized", "Unauthorized"));
  CHECK(client.send("GET", "/b").status == 401);
  CHECK(runs == 3);
}

TEST_CASE("exec credentials: malformed answers are named") {
  const std::string v1 = "client.authentication.k8s.io/v1";
  CHECK_THROWS_WITH_AS(parse_exec_credential("not json", v1),
                       doctest::Contains("not an ExecCredential"), KubeError);
  CHECK_THROWS_WITH_AS(
      parse_exec_credential(
          credential_json("client.authentication.k8s.io/v1beta1", "t", "2030-01-01T00:00:00Z"), v1),
      doctest::Contains("expected \"client.authentication.k8s.io/v1\""), KubeError);
  CHECK_THROWS_WITH_AS(
      parse_exec_credential(R"({"apiVersion": "client.authentication.k8s.io/v1", "status": {}})",
                            v1),
      doctest::Contains("neither a token nor a client certificate"), KubeError);
  CHECK_THROWS_WITH_AS(
      parse_exec_credential(
          R"({"apiVersion": "client.authentication.k8s.io/v1", "status": {"clientCertificateData": "c"}})",
          v1),
      doctest::Contains("must come together"), KubeError);
  Credential pair = parse_exec_credential(
      R"({"apiVersion": "client.authentication.k8s.io/v1", "status": {"clientCertificateData": "c", "clientKeyData": "k"}})",
      v1);
  CHECK(pair.client_cert_pem == "c");
  CHECK_FALSE(pair.expires_at);
}

TEST_CASE("RFC 3339 times with offsets and fractions") {
  CHECK(parse_rfc3339("1970-01-01T00:00:10Z") == 10.0);
  CHECK(parse_rfc3339("1970-01-01T01:00:00+01:00") == 0.0);
  CHECK(parse_rfc3339("1970-01-01T00:00:01.5Z") == 1.5);
  CHECK_FALSE(parse_rfc3339("yesterday"));
}

TEST_CASE("retry policy: 429 and 5xx only, Retry-After first, bounded") {
  RetryPolicy policy;
  CHECK_FALSE(retry_delay(policy, 0, 404, "", std::nullopt));
  CHECK_FALSE(retry_delay(policy, 0, 409, "", std::nullopt));
  CHECK(retry_delay(policy, 0, 429, "3", std::nullopt) == 3.0);
  CHECK(retry_delay(policy, 0, 429, "600", std::nullopt) == policy.max_retry_after);
  ApiStatus status;
  status.retry_after_seconds = 2;
  CHECK(retry_delay(policy, 0, 503, "", status) == 2.0);
  CHECK(retry_delay(policy, 0, 500, "", std::nullopt) == policy.first_delay);
  CHECK(retry_delay(policy, 2, 500, "", std::nullopt) == policy.first_delay * 4);
  CHECK(retry_delay(policy, 20 - 16, 502, "", std::nullopt) <= policy.max_delay);
  CHECK_FALSE(retry_delay(policy, policy.max_retries, 500, "", std::nullopt));
}

TEST_CASE("the client retries 429 after Retry-After and gives up after the bound") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  KubeClient client(https_config(), &transport, &env, &clock);
  transport.responses.push_back(
      status_response(429, "TooManyRequests", "slow down", {{"Retry-After", "2"}}));
  CHECK(client.send("GET", "/a").status == 200);
  CHECK(clock.sleeps == std::vector<double>{2.0});
  for (int i = 0; i < 10; ++i)
    transport.responses.push_back(status_response(500, "InternalError", "boom"));
  CHECK_THROWS_WITH_AS(client.call("GET", "/b"), "Error from server (InternalError): boom",
                       KubeError);
  CHECK(transport.requests.size() == 2 + 6);
}

TEST_CASE("no answer at all: the server is named") {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  KubeClient client(https_config(), &transport, &env, &clock);
  HttpResponse refused;
  refused.error = "Failed to connect to api.example port 6443: Connection refused";
  transport.responses.push_back(refused);
  CHECK_THROWS_WITH_AS(
      client.send("GET", "/a"),
      "Unable to connect to the server at https://api.example:6443: Failed to connect to "
      "api.example port 6443: Connection refused",
      KubeError);
}

TEST_CASE("Status errors: reason, message, every cause, hints for 401 and the authorizer's 403") {
  std::string invalid = R"({"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": 422,
    "reason": "Invalid", "message": "Job.batch \"x\" is invalid",
    "details": {"name": "x", "kind": "jobs", "causes": [
      {"reason": "FieldValueInvalid", "field": "spec.template", "message": "field is immutable"},
      {"reason": "FieldValueRequired", "field": "spec.selector", "message": "Required value"}]}})";
  Identity who{"red", "dev", "https://k"};
  CHECK(format_api_error(422, invalid, who) ==
        "Error from server (Invalid): Job.batch \"x\" is invalid\n"
        "  spec.template: field is immutable (FieldValueInvalid)\n"
        "  spec.selector: Required value (FieldValueRequired)");
  std::optional<ApiStatus> status = decode_status(invalid);
  REQUIRE(status);
  CHECK(status->causes.size() == 2);
  CHECK(status->name == "x");
  // (status_response writes the message into the JSON as it is: quotes escaped here.)
  std::string rbac =
      R"(jobs.batch \"x\" is forbidden: User \"red\" cannot patch resource \"jobs\")";
  CHECK(format_api_error(403, status_response(403, "Forbidden", rbac).body, who) ==
        "Error from server (Forbidden): jobs.batch \"x\" is forbidden: User \"red\" cannot patch "
        "resource \"jobs\"\nhint: user \"red\" of context \"dev\" is authenticated but not "
        "allowed to do this; ask for a Role granting it (kubectl auth can-i)");
  // An admission plugin's 403 (here the quota's) is no matter of Roles: no hint.
  std::string quota = R"(jobs.batch \"x\" is forbidden: exceeded quota: one-job)";
  CHECK(format_api_error(403, status_response(403, "Forbidden", quota).body, who) ==
        "Error from server (Forbidden): jobs.batch \"x\" is forbidden: exceeded quota: one-job");
  CHECK(format_api_error(401, status_response(401, "Unauthorized", "Unauthorized").body, who)
            .find("did not accept the credentials of user \"red\"") != std::string::npos);
  CHECK(format_api_error(502, "<html>bad gateway</html>", who) ==
        "Error from server (Unknown): the server answered 502: <html>bad gateway</html>");
  CHECK_FALSE(decode_status("{\"kind\": \"Pod\"}"));
}

TEST_CASE("Warning headers: the quoted text") {
  CHECK(warning_text(R"(299 - "child pods are preserved")") == "child pods are preserved");
  CHECK(warning_text(R"(299 host "a \"quoted\" word")") == "a \"quoted\" word");
}

TEST_CASE("URL authority and escaping") {
  std::string scheme, host;
  int port = 0;
  REQUIRE(split_url_authority("https://[::1]:8443/base", &scheme, &host, &port));
  CHECK(host == "[::1]");
  CHECK(port == 8443);
  REQUIRE(split_url_authority("https://k.example", &scheme, &host, &port));
  CHECK(port == 443);
  CHECK(url_escape("a/b=c d") == "a%2Fb%3Dc%20d");
}

TEST_CASE("exec plugin: interactiveMode Always needs a terminal; a missing plugin shows its hint") {
  FakeEnvironment env;
  FakeClock clock;
  RestConfig config = https_config();
  config.exec = exec_config("client.authentication.k8s.io/v1", "login", {}, "Always");
  CredentialSource always(config, env, clock);
  CHECK_THROWS_WITH_AS(always.current(), doctest::Contains("needs a terminal"), KubeError);
  CHECK(env.runs.empty());
  config.exec->interactive_mode = "Never";
  config.exec->install_hint = "\x1b[1minstall login\x1b[0m with apt-get";
  CredentialSource missing(config, env, clock);
  CHECK_THROWS_WITH_AS(missing.current(),
                       "exec plugin: executable \"login\" not found\ninstall login with apt-get",
                       KubeError);
}
