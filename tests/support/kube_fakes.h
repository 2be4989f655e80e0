// Test doubles for the cluster code's side effects: environment, clock, HTTP transport.
#ifndef TRAINJOB_TESTS_UNIT_KUBE_FAKES_H_
#define TRAINJOB_TESTS_UNIT_KUBE_FAKES_H_

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kube/environment.h"
#include "kube/http.h"

namespace trainjob {

class FakeEnvironment : public Environment {
 public:
  std::map<std::string, std::string> variables;
  std::map<std::string, std::string> files;
  std::function<ProcessResult(const ProcessRequest&)> on_run;
  std::vector<ProcessRequest> runs;
  bool terminal = false;

  std::optional<std::string> variable(const std::string& name) const override {
    auto it = variables.find(name);
    if (it == variables.end()) return std::nullopt;
    return it->second;
  }
  std::optional<std::string> read_file(const std::string& path) const override {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
  ProcessResult run(const ProcessRequest& request) const override {
    const_cast<FakeEnvironment*>(this)->runs.push_back(request);
    return on_run ? on_run(request) : ProcessResult{};
  }
  bool stdin_is_terminal() const override { return terminal; }
};

class FakeClock : public Clock {
 public:
  double time = 1'800'000'000;
  std::vector<double> sleeps;
  double now() const override { return time; }
  void sleep(double seconds) const override {
    auto* self = const_cast<FakeClock*>(this);
    self->sleeps.push_back(seconds);
    self->time += seconds;
  }
};

/// Answers requests from a queue of canned responses and records what was asked.
class FakeTransport : public HttpTransport {
 public:
  std::deque<HttpResponse> responses;
  std::vector<HttpRequest> requests;

  HttpResponse perform(const HttpRequest& request) override {
    requests.push_back(request);
    if (responses.empty()) return response(200, {}, "{}");
    HttpResponse next = responses.front();
    responses.pop_front();
    if (request.on_body && next.status >= 200 && next.status < 300) {
      request.on_body(next.body);
      next.body.clear();
    }
    return next;
  }

  static HttpResponse response(int status, HttpHeaders headers, std::string body) {
    HttpResponse out;
    out.status = status;
    out.headers = std::move(headers);
    out.body = std::move(body);
    return out;
  }
};

inline HttpResponse status_response(int code, const std::string& reason, const std::string& message,
                                    HttpHeaders headers = {}) {
  std::string body = R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":")" +
                     reason + R"(","message":")" + message + R"(","code":)" + std::to_string(code) +
                     "}";
  return FakeTransport::response(code, std::move(headers), body);
}

}  // namespace trainjob

#endif  // TRAINJOB_TESTS_UNIT_KUBE_FAKES_H_
