#include "status_reporter.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <utility>

#include <curl/curl.h>

namespace trainjob::trainer {
namespace {

/// How much of a refusal's body the warning quotes: the server's reason, not a whole page.
constexpr size_t kStatusAnswerKept = 200;

size_t keep_status_answer(char* data, size_t size, size_t count, void* user) {
  auto* answer = static_cast<std::string*>(user);
  const size_t bytes = size * count;
  if (answer->size() < kStatusAnswerKept)
    answer->append(data, std::min(bytes, kStatusAnswerKept - answer->size()));
  return bytes;
}

/// The token as the kubelet last wrote it, without the trailing newline.
bool read_status_token(const std::string& path, std::string* token, std::string* error) {
  std::ifstream file(path);
  if (!file) {
    *error = "cannot read the token file " + path + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << file.rdbuf();
  *token = text.str();
  while (!token->empty() && std::isspace(static_cast<unsigned char>(token->back())))
    token->pop_back();
  if (token->empty()) *error = "the token file " + path + " is empty";
  return !token->empty();
}

/// Content-Type, and the bearer token when there is one; null only if out of memory.
curl_slist* status_headers(const std::string& token) {
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  if (headers == nullptr || token.empty()) return headers;
  curl_slist* more = curl_slist_append(headers, ("Authorization: Bearer " + token).c_str());
  return more != nullptr ? more : headers;
}

void set_status_request(CURL* curl, const StatusServer& server, const std::string& body,
                        std::chrono::milliseconds timeout, curl_slist* headers, std::string* answer,
                        char* error_text) {
  // reset keeps the connection, so a reachable server costs one TLS handshake in all.
  curl_easy_reset(curl);
  curl_easy_setopt(curl, CURLOPT_URL, server.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (!server.ca_cert_file.empty())
    curl_easy_setopt(curl, CURLOPT_CAINFO, server.ca_cert_file.c_str());
  // The whole call, connection and TLS included (0 would mean none: the reporter never asks).
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::max<int64_t>(1, timeout.count())));
  // Timeouts without SIGALRM, which a thread beside the training must not raise.
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_status_answer);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
}

/// One POST of `body` within `timeout`; empty on a 2xx answer, else why not.
std::string post_status_once(CURL* curl, const StatusServer& server, const std::string& body,
                             std::chrono::milliseconds timeout) {
  std::string token;
  std::string error;
  if (!server.token_file.empty() && !read_status_token(server.token_file, &token, &error))
    return error;
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(status_headers(token),
                                                                      curl_slist_free_all);
  std::string answer;
  char error_text[CURL_ERROR_SIZE] = "";
  set_status_request(curl, server, body, timeout, headers.get(), &answer, error_text);
  const CURLcode code = curl_easy_perform(curl);
  if (code != CURLE_OK) return error_text[0] != '\0' ? error_text : curl_easy_strerror(code);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 200 && status < 300) return "";
  return "HTTP " + std::to_string(status) + (answer.empty() ? "" : ": " + answer);
}

}  // namespace

std::optional<StatusServer> status_server_from_env(const EnvLookup& env) {
  std::optional<std::string> url = env(kStatusServerUrlVariable);
  if (!url || url->empty()) return std::nullopt;
  StatusServer server;
  server.url = *url;
  server.ca_cert_file = env(kStatusServerCaVariable).value_or("");
  server.token_file = env(kStatusServerTokenVariable).value_or("");
  return server;
}

StatusPoster https_status_poster(const StatusServer& server) {
  // Called from the main thread, before the reporter's thread uses libcurl.
  curl_global_init(CURL_GLOBAL_DEFAULT);
  std::shared_ptr<CURL> curl(curl_easy_init(), curl_easy_cleanup);
  return [curl, server](const std::string& body, std::chrono::milliseconds timeout) {
    if (!curl) return std::string("cannot start libcurl");
    return post_status_once(curl.get(), server, body, timeout);
  };
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
