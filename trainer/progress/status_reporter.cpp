#include "progress/status_reporter.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <utility>

namespace trainjob::trainer {

std::optional<StatusServer> status_server_from_env(const EnvLookup& env) {
  std::optional<std::string> url = env(kStatusServerUrlVariable);
  if (!url || url->empty()) return std::nullopt;
  StatusServer server;
  server.url = *url;
  server.ca_cert_file = env(kStatusServerCaVariable).value_or("");
  server.token_file = env(kStatusServerTokenVariable).value_or("");
  return server;
}

StatusReporter::StatusReporter(StatusPoster post, Settings settings)
    : post_(std::move(post)), settings_(std::move(settings)) {
  if (!settings_.warn) {
    settings_.warn = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  }
  thread_ = std::thread([this] { run(); });
}

StatusReporter::~StatusReporter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void StatusReporter::offer(const ProgressReport& report) {
  std::string body = trainer_status_body(report, utc_timestamp(std::time(nullptr)));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = std::move(body);
  }
  wake_.notify_all();
}

void StatusReporter::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finishing_ = true;
    finish_deadline_ = std::chrono::steady_clock::now() + settings_.call_timeout;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int StatusReporter::sent() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sent_;
}

int StatusReporter::failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

void StatusReporter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (!pending_) {
      if (finishing_) return;
      wake_.wait(lock);
      continue;
    }
    if (!finishing_ && last_call_) {
      const auto due = *last_call_ + settings_.interval;
      if (std::chrono::steady_clock::now() < due) {
        wake_.wait_until(lock, due);
        continue;
      }
    }
    std::string body = std::move(*pending_);
    pending_.reset();
    last_call_ = std::chrono::steady_clock::now();
    const std::chrono::milliseconds timeout = next_call_timeout();
    lock.unlock();
    if (timeout.count() > 0) {
      deliver(body, timeout);
    } else {
      record_failure("the last report was not sent: the call before it used up the " +
                     std::to_string(settings_.call_timeout.count()) +
                     " ms the exit waits for the server");
    }
    lock.lock();
  }
}

std::chrono::milliseconds StatusReporter::next_call_timeout() const {
  if (!finishing_) return settings_.call_timeout;
  // A call in flight when finish() came has had part of the exit's wait already.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      finish_deadline_ - std::chrono::steady_clock::now());
  return std::clamp(left, std::chrono::milliseconds(0), settings_.call_timeout);
}

void StatusReporter::deliver(const std::string& body, std::chrono::milliseconds timeout) {
  const std::string error = post_(body, timeout);
  if (!error.empty()) {
    record_failure(error);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++sent_;
}

void StatusReporter::record_failure(const std::string& error) {
  bool first_failure = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    first_failure = failures_++ == 0;
  }
  // Once: a server that is down stays down, and training goes on regardless.
  if (first_failure) {
    settings_.warn("trainjob-trainer: warning: progress not reported to " + settings_.destination +
                   ": " + error + " (training goes on; later failures are not logged)");
  }
}

std::unique_ptr<StatusReporter> status_reporter_from_env(const EnvLookup& env) {
  std::optional<StatusServer> server = status_server_from_env(env);
  if (!server) return nullptr;
  std::printf("[rank 0] reporting progress to %s\n", server->url.c_str());
  StatusReporter::Settings settings;
  settings.destination = server->url;
  return std::make_unique<StatusReporter>(https_status_poster(*server), std::move(settings));
}

}  // namespace trainjob::trainer
