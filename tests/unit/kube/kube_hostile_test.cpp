// Cluster commands against hostile configuration and plugins: a CA with insecure TLS, a
// credential plugin that hangs or floods, and `delete` finding only what `submit` applied.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "../../support/kube_fakes.h"
#include "cluster/submit.h"
#include "kube/client.h"
#include "kube/credentials.h"
#include "kube/kube_error.h"
#include "kube/kubeconfig.h"
#include "kube/rest_config.h"
#include "status/trainjob_objects.h"
#include "util/duration.h"

using namespace trainjob;

namespace {

Kubeconfig one_cluster(const std::string& cluster_json) {
  Kubeconfig config;
  merge_kubeconfig_file("/k/config",
                        Json::parse(R"({"current-context": "c",
    "clusters": [{"name": "k", "cluster": )" +
                                    cluster_json + R"(}],
    "contexts": [{"name": "c", "context": {"cluster": "k"}}]})"),
                        &config);
  return config;
}

RestConfig exec_rest_config(double request_timeout) {
  RestConfig config;
  config.server = "https://api.example:6443";
  config.timeout_seconds = request_timeout;
  config.exec = ExecConfig{};
  config.exec->api_version = "client.authentication.k8s.io/v1";
  config.exec->command = "aws-iam-authenticator";
  config.exec->interactive_mode = "Never";
  return config;
}

/// Runs `script` under sh with our stderr sent to /dev/null (the plugin's stderr is copied
/// there), the limits given, and the seconds it took.
ProcessResult run_quietly(const std::string& script, double timeout, size_t limit,
                          double* seconds) {
  int saved = dup(STDERR_FILENO);
  int null_fd = open("/dev/null", O_WRONLY);
  dup2(null_fd, STDERR_FILENO);
  close(null_fd);
  auto start = std::chrono::steady_clock::now();
  ProcessRequest request{"/bin/sh", {"-c", script}, {}, false};
  request.timeout_seconds = timeout;
  request.output_limit = limit;
  ProcessResult result = RealEnvironment().run(request);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  dup2(saved, STDERR_FILENO);
  close(saved);
  return result;
}

/// Whether process `pid` is gone or a zombie that is not ours (its parent reaps it).
bool ended(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return true;
    size_t close_paren = text.rfind(')');
    if (close_paren != std::string::npos && text.substr(close_paren + 2, 1) == "Z") return true;
    usleep(20000);
  }
  return false;
}

}  // namespace

TEST_CASE("kubeconfig: a CA with insecure-skip-tls-verify is refused with kubectl's words") {
  FakeEnvironment env;
  env.files["/k/ca.pem"] = "CA";
  const char* refused = "specifying a root certificates file with the insecure flag is not allowed";
  for (
      const char* cluster :
      {R"({"server": "https://k", "insecure-skip-tls-verify": true, "certificate-authority-data": "Q0E="})",
       R"({"server": "https://k", "insecure-skip-tls-verify": true, "certificate-authority": "ca.pem"})",
       R"({"server": "https://k", "insecure-skip-tls-verify": true, "certificate-authority": "gone.pem"})"}) {
    CAPTURE(cluster);
    CHECK_THROWS_WITH_AS(resolve_rest_config(one_cluster(cluster), {}, env), refused, KubeError);
  }
  RestConfig insecure = resolve_rest_config(
      one_cluster(R"({"server": "https://k", "insecure-skip-tls-verify": true})"), {}, env);
  CHECK(insecure.tls.insecure_skip_verify);
  RestConfig trusted = resolve_rest_config(
      one_cluster(
          R"({"server": "https://k", "insecure-skip-tls-verify": false, "certificate-authority": "ca.pem"})"),
      {}, env);
  CHECK(trusted.tls.ca_pem == "CA");
  CHECK_THROWS_WITH_AS(
      resolve_rest_config(
          one_cluster(R"({"server": "https://k", "insecure-skip-tls-verify": "yes"})"), {}, env),
      "cluster \"k\": insecure-skip-tls-verify: expected true or false", KubeError);
}

TEST_CASE("exec plugin: runs under the request timeout (a minute without one), output capped") {
  CHECK(exec_plugin_timeout(0) == 60);
  CHECK(exec_plugin_timeout(2.5) == 2.5);
  FakeEnvironment env;
  FakeClock clock;
  env.on_run = [](const ProcessRequest&) { return ProcessResult{}; };
  RestConfig config = exec_rest_config(0);
  CredentialSource source(config, env, clock);
  CHECK_THROWS_AS(source.current(), KubeError);
  REQUIRE(env.runs.size() == 1);
  CHECK(env.runs[0].timeout_seconds == 60);
  CHECK(env.runs[0].output_limit == 1024 * 1024);
  RestConfig with_timeout = exec_rest_config(5);
  CredentialSource timed(with_timeout, env, clock);
  CHECK_THROWS_AS(timed.current(), KubeError);
  CHECK(env.runs.back().timeout_seconds == 5);
}

TEST_CASE("exec plugin: a hang or a flood is an error naming the plugin") {
  FakeEnvironment env;
  FakeClock clock;
  ProcessEnd end = ProcessEnd::kTimedOut;
  env.on_run = [&](const ProcessRequest&) { return ProcessResult{true, 137, "", end}; };
  RestConfig config = exec_rest_config(0);
  CHECK_THROWS_WITH_AS(CredentialSource(config, env, clock).current(),
                       "exec plugin \"aws-iam-authenticator\": no answer within 60s", KubeError);
  config.timeout_seconds = 1.5;
  CHECK_THROWS_WITH_AS(CredentialSource(config, env, clock).current(),
                       "exec plugin \"aws-iam-authenticator\": no answer within 1.5s", KubeError);
  end = ProcessEnd::kStdoutTooLarge;
  CHECK_THROWS_WITH_AS(CredentialSource(config, env, clock).current(),
                       "exec plugin \"aws-iam-authenticator\": printed more than 1 MiB", KubeError);
  end = ProcessEnd::kStderrTooLarge;
  CHECK_THROWS_WITH_AS(CredentialSource(config, env, clock).current(),
                       "exec plugin \"aws-iam-authenticator\": printed more than 1 MiB on stderr",
                       KubeError);
}

TEST_CASE("output cap: appends while the total stays within the limit") {
  std::string out;
  CHECK(append_within(&out, "abc", 3, 5));
  CHECK(append_within(&out, "de", 2, 5));
  CHECK_FALSE(append_within(&out, "f", 1, 5));
  CHECK(out == "abcde");
  CHECK(append_within(&out, "fgh", 3, 0));  // 0: no limit
  CHECK(out == "abcdefgh");
  CHECK_FALSE(append_within(&out, "", 0, 4));  // already past it
}

TEST_CASE("process: a hang is killed at the deadline, with what it started, and reaped") {
  double seconds = 0;
  ProcessResult result = run_quietly("sleep 30 & echo $$ $!; wait", 0.5, 0, &seconds);
  CHECK(result.end == ProcessEnd::kTimedOut);
  CHECK(seconds < 5);
  int shell = 0, sleeper = 0;
  REQUIRE(std::sscanf(result.out.c_str(), "%d %d", &shell, &sleeper) == 2);
  CHECK(waitpid(shell, nullptr, WNOHANG) == -1);  // reaped already: no zombie of ours
  CHECK(errno == ECHILD);
  CHECK(ended(sleeper));  // the grandchild went with its process group
}

TEST_CASE("process: stdout or stderr past the limit stops it; within, it runs to the end") {
  double seconds = 0;
  ProcessResult flood = run_quietly("head -c 5000 /dev/zero; sleep 30", 10, 4096, &seconds);
  CHECK(flood.end == ProcessEnd::kStdoutTooLarge);
  CHECK(flood.out.size() <= 4096);
  CHECK(seconds < 5);
  ProcessResult noisy = run_quietly("head -c 5000 /dev/zero >&2; sleep 30", 10, 4096, &seconds);
  CHECK(noisy.end == ProcessEnd::kStderrTooLarge);
  CHECK(seconds < 5);
  ProcessResult fine = run_quietly("echo ok; echo warning >&2; exit 3", 10, 4096, &seconds);
  CHECK(fine.end == ProcessEnd::kExited);
  CHECK(fine.started);
  CHECK(fine.exit_code == 3);
  CHECK(fine.out == "ok\n");
}

TEST_CASE("submit marks each object as its own and records the kinds it applies") {
  SubmitPlan plan;
  plan.trainjob = "tune";
  plan.objects = {
      Json::parse(R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}})"),
      Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
                      "metadata": {"name": "j", "labels": {"team": "a"}}})"),
      Json::parse(R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "t"}})")};
  mark_as_submitted(&plan);
  for (const Json& object : plan.objects) {
    const Json& metadata = object["metadata"];
    CHECK(metadata["labels"]["trainer.kubeflow.org/trainjob-name"] == "tune");
    CHECK(metadata["labels"]["kubectl-trainjob/created-by-submit"] == "true");
    CHECK(metadata["annotations"]["kubectl-trainjob/submitted-kinds"] == "v1/Secret,batch/v1/Job");
  }
  CHECK(plan.objects[1]["metadata"]["labels"]["team"] == "a");
}

namespace {

/// A client of https://api.example over a FakeTransport.
struct FakeApi {
  FakeEnvironment env;
  FakeClock clock;
  FakeTransport transport;
  KubeClient client{api_config(), &transport, &env, &clock};

  static RestConfig api_config() {
    RestConfig config;
    config.server = "https://api.example";
    return config;
  }
};

/// The paths `transport` was asked for, each with the selector of submit's labels for "tune".
std::vector<std::string> paths_of(const FakeTransport& transport) {
  std::vector<std::string> paths;
  for (const HttpRequest& request : transport.requests) {
    std::string url = request.url.substr(std::string("https://api.example").size());
    CHECK(url.find("labelSelector=trainer.kubeflow.org%2Ftrainjob-name%3Dtune%2Ckubectl-trainjob"
                   "%2Fcreated-by-submit%3Dtrue") != std::string::npos);
    paths.push_back(url.substr(0, url.find('?')));
  }
  return paths;
}

}  // namespace

TEST_CASE("delete finds by submit's labels exactly the kinds the Jobs record") {
  FakeApi api;
  FakeTransport& transport = api.transport;
  KubeClient& client = api.client;
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": [{"metadata": {
      "name": "tune-node-0", "annotations": {"kubectl-trainjob/submitted-kinds":
      "batch/v1/Job,v1/PersistentVolumeClaim,../../x/Evil,v1/Bad kind,v1/Secret"}}}]})"));
  std::vector<Json> found = find_trainjob_objects(&client, "team", "tune");
  REQUIRE(found.size() == 1);
  CHECK(found[0]["kind"] == "Job");
  // The usual kinds in their order, then the others as recorded; never the bad names.
  CHECK(paths_of(transport) ==
        std::vector<std::string>{"/apis/batch/v1/namespaces/team/jobs",
                                 "/api/v1/namespaces/team/secrets",
                                 "/api/v1/namespaces/team/persistentvolumeclaims"});
}

TEST_CASE("delete without recorded kinds searches the usual ones, skipping those it may not list") {
  FakeApi api;
  FakeTransport& transport = api.transport;
  KubeClient& client = api.client;
  const char* forbidden = R"({"kind": "Status", "code": 403, "reason": "Forbidden",
      "message": "podgroups is forbidden: User \"u\" cannot list resource \"podgroups\""})";
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  transport.responses.push_back(FakeTransport::response(403, {}, forbidden));
  for (int i = 0; i < 4; ++i)  // Volcano's, Kubernetes' own and KAI's PodGroups, Workloads
    transport.responses.push_back(FakeTransport::response(404, {}, "{}"));
  transport.responses.push_back(
      FakeTransport::response(200, {}, R"({"items": [{"metadata": {"name": "tune"}}]})"));
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  transport.responses.push_back(FakeTransport::response(403, {}, forbidden));
  std::vector<Json> found = find_trainjob_objects(&client, "team", "tune");
  REQUIRE(found.size() == 1);
  CHECK(found[0]["kind"] == "Service");
  CHECK(paths_of(transport) ==
        std::vector<std::string>{"/apis/batch/v1/namespaces/team/jobs",
                                 "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/team/podgroups",
                                 "/apis/scheduling.volcano.sh/v1beta1/namespaces/team/podgroups",
                                 "/apis/scheduling.k8s.io/v1beta1/namespaces/team/podgroups",
                                 "/apis/scheduling.k8s.io/v1beta1/namespaces/team/workloads",
                                 "/apis/scheduling.run.ai/v2alpha2/namespaces/team/podgroups",
                                 "/api/v1/namespaces/team/services",
                                 "/api/v1/namespaces/team/configmaps",
                                 "/api/v1/namespaces/team/secrets"});
}

TEST_CASE("delete without recorded kinds still fails when it may not list Services") {
  FakeApi api;
  FakeTransport& transport = api.transport;
  KubeClient& client = api.client;
  transport.responses.push_back(FakeTransport::response(200, {}, R"({"items": []})"));
  for (int i = 0; i < 5; ++i)  // no PodGroups or Workloads served
    transport.responses.push_back(FakeTransport::response(404, {}, "{}"));
  transport.responses.push_back(FakeTransport::response(
      403, {}, R"({"kind": "Status", "code": 403, "reason": "Forbidden", "message": "no"})"));
  CHECK_THROWS_AS(find_trainjob_objects(&client, "team", "tune"), KubeError);
}

TEST_CASE("--request-timeout: numbers that do not fit are refused, not thrown") {
  CHECK_FALSE(parse_duration("."));
  CHECK_FALSE(parse_duration(".s"));
  CHECK_FALSE(parse_duration(std::string(400, '9')));
  CHECK_FALSE(parse_duration(std::string(400, '9') + "h"));
  CHECK(parse_duration("1.5s") == 1.5);
  CHECK(parse_duration("1m30s") == 90);
}
