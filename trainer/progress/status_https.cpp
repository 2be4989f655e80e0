// The status server's transport: one POST per report over HTTPS with libcurl. Kept apart from
// the reporter so that a build without libcurl (TRAINJOB_TRAINER_STATUS_SERVER=OFF) swaps this
// file alone for status_https_none.cpp.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include <curl/curl.h>

#include "progress/status_reporter.h"

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

StatusPoster https_status_poster(const StatusServer& server) {
  // Called from the main thread, before the reporter's thread uses libcurl.
  curl_global_init(CURL_GLOBAL_DEFAULT);
  std::shared_ptr<CURL> curl(curl_easy_init(), curl_easy_cleanup);
  return [curl, server](const std::string& body, std::chrono::milliseconds timeout) {
    if (!curl) return std::string("cannot start libcurl");
    return post_status_once(curl.get(), server, body, timeout);
  };
}

}  // namespace trainjob::trainer
