// The reports rank 0 POSTs to upstream's status server: the body, the variables, and the
// thread that throttles them and logs one failure (a fake poster here; status_server_test.sh
// POSTs to a real HTTPS server).
#include "progress/status_reporter.h"

#include <atomic>
#include <map>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

using namespace trainjob::trainer;

namespace {

ProgressReport report_at_epoch(int epoch) {
  ProgressReport report;
  report.epoch = epoch;
  report.epochs = 4;
  report.step = 10 * epoch;
  report.total_steps = 40;
  report.loss = 1.0 / epoch;
  return report;
}

/// A poster that records the bodies, answering with `error` (empty: success).
struct RecordingPoster {
  std::shared_ptr<std::vector<std::string>> bodies = std::make_shared<std::vector<std::string>>();
  std::string error;
  StatusPoster poster() const {
    return [bodies = bodies, error = error](const std::string& body, std::chrono::milliseconds) {
      bodies->push_back(body);
      return error;
    };
  }
};

}  // namespace

TEST_CASE("status body: upstream's UpdateTrainJobStatusRequest") {
  ProgressReport report = report_at_epoch(3);
  report.accuracy = 0.91;
  report.samples_per_second = 1234.56;
  report.remaining_seconds = 41.6;
  CHECK(trainer_status_body(report, "2026-11-23T10:00:05Z") ==
        R"({"trainerStatus":{"progressPercentage":75,"estimatedRemainingSeconds":42,)"
        R"("metrics":[{"name":"loss","value":"0.333333"},{"name":"accuracy","value":"0.91"},)"
        R"({"name":"samplesPerSecond","value":"1234.6"}],)"
        R"("lastUpdatedTime":"2026-11-23T10:00:05Z"}})");
  CHECK(utc_timestamp(0) == "1970-01-01T00:00:00Z");
}

TEST_CASE("status server: named by KUBEFLOW_TRAINER_SERVER_URL, its files by the others") {
  std::map<std::string, std::string> values = {
      {"KUBEFLOW_TRAINER_SERVER_URL", "https://s.ns.svc:10443/status"},
      {"KUBEFLOW_TRAINER_SERVER_TOKEN", "/var/run/secrets/kubeflow/trainer/token"}};
  EnvLookup env = [&values](const std::string& name) -> std::optional<std::string> {
    auto found = values.find(name);
    if (found == values.end()) return std::nullopt;
    return found->second;
  };
  std::optional<StatusServer> server = status_server_from_env(env);
  REQUIRE(server);
  CHECK(server->url == "https://s.ns.svc:10443/status");
  CHECK(server->ca_cert_file.empty());
  CHECK(server->token_file == "/var/run/secrets/kubeflow/trainer/token");
  values["KUBEFLOW_TRAINER_SERVER_URL"] = "";
  CHECK_FALSE(status_server_from_env(env));
}

TEST_CASE("status reporter: the first at once, then the latest per interval, the last at the end") {
  RecordingPoster recorder;
  StatusReporter reporter(recorder.poster(), {std::chrono::milliseconds(60000), "test", {}});
  reporter.offer(report_at_epoch(1));
  for (int wait = 0; wait < 200 && reporter.sent() < 1; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  for (int epoch = 2; epoch <= 4; ++epoch)
    reporter.offer(report_at_epoch(epoch));
  reporter.finish();
  // Epoch 1 went at once; 2 and 3 were superseded within the interval; 4 is the last.
  REQUIRE(recorder.bodies->size() == 2);
  CHECK(recorder.bodies->at(0).find("\"progressPercentage\":25,") != std::string::npos);
  CHECK(recorder.bodies->at(1).find("\"progressPercentage\":100,") != std::string::npos);
  CHECK(reporter.sent() == 2);
}

TEST_CASE("status reporter: a report waits out the interval, then goes without finish") {
  RecordingPoster recorder;
  StatusReporter reporter(recorder.poster(), {std::chrono::milliseconds(50), "test", {}});
  reporter.offer(report_at_epoch(1));
  for (int wait = 0; wait < 200 && reporter.sent() < 1; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  reporter.offer(report_at_epoch(2));
  for (int wait = 0; wait < 200 && reporter.sent() < 2; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(reporter.sent() == 2);
}

TEST_CASE("status reporter: failures are logged once and counted, and nothing is thrown") {
  RecordingPoster recorder;
  recorder.error = "Connection refused";
  std::vector<std::string> warnings;
  StatusReporter::Settings settings{
      std::chrono::milliseconds(0), "https://127.0.0.1:9/status",
      [&warnings](const std::string& line) { warnings.push_back(line); }};
  StatusReporter reporter(recorder.poster(), settings);
  for (int epoch = 1; epoch <= 3; ++epoch) {
    reporter.offer(report_at_epoch(epoch));
    for (int wait = 0; wait < 200 && reporter.failures() < epoch; ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  reporter.finish();
  CHECK(reporter.failures() == 3);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        "trainjob-trainer: warning: progress not reported to https://127.0.0.1:9/status: "
        "Connection refused (training goes on; later failures are not logged)");
}

TEST_CASE("status reporter: destroyed unfinished, it stops without sending") {
  RecordingPoster recorder;
  {
    StatusReporter reporter(recorder.poster(), {std::chrono::milliseconds(60000), "test", {}});
    reporter.offer(report_at_epoch(1));
    for (int wait = 0; wait < 200 && reporter.sent() < 1; ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    reporter.offer(report_at_epoch(2));
  }
  CHECK(recorder.bodies->size() == 1);
}

namespace {

/// A server that accepts and never answers: each call takes its whole timeout, then fails as
/// libcurl's does. Records the timeouts it was given.
struct SilentPoster {
  std::shared_ptr<std::vector<std::chrono::milliseconds>> timeouts =
      std::make_shared<std::vector<std::chrono::milliseconds>>();
  std::shared_ptr<std::atomic<int>> started = std::make_shared<std::atomic<int>>(0);
  StatusPoster poster() const {
    return [timeouts = timeouts, started = started](const std::string&,
                                                    std::chrono::milliseconds timeout) {
      timeouts->push_back(timeout);
      ++*started;
      std::this_thread::sleep_for(timeout);
      return std::string("Operation timed out");
    };
  }
};

}  // namespace

TEST_CASE("status reporter: against a silent server, finish() waits one call timeout in all") {
  SilentPoster silent;
  std::vector<std::string> warnings;
  const std::chrono::milliseconds call_timeout(500);
  StatusReporter::Settings settings{
      std::chrono::milliseconds(60000), "https://silent/status",
      [&warnings](const std::string& line) { warnings.push_back(line); }, call_timeout};
  StatusReporter reporter(silent.poster(), settings);
  reporter.offer(report_at_epoch(1));
  for (int wait = 0; wait < 400 && *silent.started < 1; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(*silent.started == 1);
  reporter.offer(report_at_epoch(4));
  const auto finish_called = std::chrono::steady_clock::now();
  reporter.finish();
  const auto waited = std::chrono::steady_clock::now() - finish_called;
  // The call in flight had the whole timeout; the last one gets what it left, or is dropped:
  // the two together never make the exit wait two timeouts.
  REQUIRE(!silent.timeouts->empty());
  CHECK(silent.timeouts->at(0) == call_timeout);
  if (silent.timeouts->size() == 2) CHECK(silent.timeouts->at(1) < call_timeout);
  CHECK(silent.timeouts->size() <= 2);
  // Generous for a loaded machine, and still short of the two timeouts waited before.
  CHECK(waited < call_timeout * 9 / 5);
  CHECK(reporter.failures() == 2);
  CHECK(reporter.sent() == 0);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("Operation timed out") != std::string::npos);
}

TEST_CASE("status reporter: with nothing in flight, the last call gets the whole timeout") {
  RecordingPoster recorder;
  std::vector<std::chrono::milliseconds> timeouts;
  StatusPoster poster = [&timeouts, inner = recorder.poster()](const std::string& body,
                                                               std::chrono::milliseconds timeout) {
    timeouts.push_back(timeout);
    return inner(body, timeout);
  };
  const std::chrono::milliseconds call_timeout(60000);
  StatusReporter reporter(poster, {std::chrono::milliseconds(60000), "test", {}, call_timeout});
  reporter.offer(report_at_epoch(1));
  for (int wait = 0; wait < 200 && reporter.sent() < 1; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  reporter.offer(report_at_epoch(4));
  reporter.finish();
  REQUIRE(timeouts.size() == 2);
  CHECK(timeouts[0] == call_timeout);
  // What is left of the exit's wait: all of it but the moment finish() took to get here.
  CHECK(timeouts[1] > call_timeout - std::chrono::milliseconds(10000));
  CHECK(timeouts[1] <= call_timeout);
  CHECK(reporter.sent() == 2);
}
