#include "kube/client.h"

#include <cstdio>

#include "kube/curl_library.h"
#include "kube/kube_error.h"
#include "util/duration.h"

namespace trainjob {
namespace {

std::string redact(const std::string& name, const std::string& value) {
  if (name == "Authorization") {
    size_t space = value.find(' ');
    return (space == std::string::npos ? "" : value.substr(0, space + 1)) + "<masked>";
  }
  return value;
}

}  // namespace

Json ApiResponse::json() const {
  // Every object's metadata.managedFields is left out as it is read: no command uses it, and
  // it is a third of a pod, so a list of 1,000 pods takes that much less memory.
  std::vector<std::string> keys;  // the key being read at each depth
  auto drop_managed_fields = [&keys](int depth, Json::parse_event_t event, Json& parsed) {
    if (event != Json::parse_event_t::key) return true;
    size_t at = static_cast<size_t>(depth);
    if (keys.size() <= at) keys.resize(at + 1);
    keys[at] = parsed.get_ref<const std::string&>();
    return !(at > 0 && keys[at] == "managedFields" && keys[at - 1] == "metadata");
  };
  Json value = Json::parse(body, drop_managed_fields, false);
  return value.is_discarded() ? Json() : value;
}

KubeClient::KubeClient(RestConfig config, HttpTransport* transport, const Environment* env,
                       const Clock* clock)
    : config_(std::move(config)),
      transport_(transport),
      clock_(clock),
      credentials_(config_, *env, *clock) {}

HttpRequest KubeClient::build(const Call& call, const Credential& credential) const {
  HttpRequest request;
  request.method = call.method;
  request.url = config_.server + call.path;
  request.tls = config_.tls;
  request.headers.emplace_back("Accept", "application/json");
  request.headers.emplace_back("User-Agent", "kubectl-trainjob/" TRAINJOB_VERSION);
  if (!call.content_type.empty()) request.headers.emplace_back("Content-Type", call.content_type);
  // Credentials only travel over TLS, as with client-go.
  bool https = config_.server.rfind("https://", 0) == 0;
  if (https && !credential.token.empty())
    request.headers.emplace_back("Authorization", "Bearer " + credential.token);
  if (https && !credential.client_cert_pem.empty()) {
    request.tls.client_cert_pem = credential.client_cert_pem;
    request.tls.client_key_pem = credential.client_key_pem;
  }
  request.body = call.body;
  request.on_body = call.on_body;
  request.cancel = call.cancel;
  // A stream lives as long as its pod or watch: the timeout bounds only the connection.
  if (call.on_body) {
    request.connect_timeout_seconds = config_.timeout_seconds;
  } else {
    request.timeout_seconds = config_.timeout_seconds;
  }
  return request;
}

HttpResponse KubeClient::perform_traced(const HttpRequest& request) {
  ++requests_;
  double start = clock_->now();
  if (config_.verbosity >= 7) {
    std::string lines;
    for (const auto& [name, value] : request.headers)
      lines += "    " + name + ": " + redact(name, value) + "\n";
    std::fprintf(stderr, "I Request Headers: %s %s\n%s", request.method.c_str(),
                 request.url.c_str(), lines.c_str());
  }
  if (config_.verbosity >= 8 && !request.body.empty())
    std::fprintf(stderr, "I Request Body: %.1024s\n", request.body.c_str());
  HttpResponse response = transport_->perform(request);
  if (config_.verbosity >= 6) {
    long ms = static_cast<long>((clock_->now() - start) * 1000);
    std::string outcome = response.status != 0 ? std::to_string(response.status)
                                               : "(no response: " + response.error + ")";
    std::fprintf(stderr, "I %s %s %s in %ld milliseconds\n", request.method.c_str(),
                 request.url.c_str(), outcome.c_str(), ms);
  }
  if (config_.verbosity >= 8 && !response.body.empty())
    std::fprintf(stderr, "I Response Body: %.1024s\n", response.body.c_str());
  report_warnings(response);
  return response;
}

void KubeClient::report_warnings(const HttpResponse& response) {
  for (const std::string& header : response.headers_named("Warning")) {
    std::string text = warning_text(header);
    std::lock_guard<std::mutex> lock(warnings_mutex_);
    if (warnings_seen_.insert(text).second) std::fprintf(stderr, "Warning: %s\n", text.c_str());
  }
}

HttpResponse KubeClient::perform_with_retries(const Call& call) {
  Credential credential = credentials_.current();
  bool reauthenticated = false;
  for (int retry = 0;; ++retry) {
    HttpResponse response = perform_traced(build(call, credential));
    if (response.status == 401 && !reauthenticated &&
        credentials_.refresh_after_unauthorized(credential)) {
      reauthenticated = true;  // once only: a second 401 is the answer
      credential = credentials_.current();
      --retry;
      continue;
    }
    std::optional<double> delay =
        response.status == 0
            ? std::nullopt
            : retry_delay(retry_policy_, retry, response.status, response.header("Retry-After"),
                          decode_status(response.body));
    if (!delay) return response;
    if (config_.verbosity >= 6)
      std::fprintf(stderr, "I retrying after %d in %.2f s\n", response.status, *delay);
    clock_->sleep(*delay);
  }
}

void KubeClient::throw_transport_error(const HttpResponse& response) const {
  if (response.timed_out) {
    throw KubeError("the server at " + config_.server +
                    " did not answer in time (--request-timeout " +
                    seconds_text(config_.timeout_seconds) + "): " + response.error);
  }
  throw KubeError("Unable to connect to the server at " + config_.server + ": " + response.error);
}

ApiResponse KubeClient::send(const std::string& method, const std::string& path,
                             const std::string& body, const std::string& content_type) {
  HttpResponse response = perform_with_retries(Call{method, path, body, content_type, {}, nullptr});
  if (response.status == 0) throw_transport_error(response);
  return ApiResponse{response.status, std::move(response.body), std::move(response.headers)};
}

Json KubeClient::call(const std::string& method, const std::string& path, const std::string& body,
                      const std::string& content_type) {
  ApiResponse response = send(method, path, body, content_type);
  if (!response.ok()) {
    std::optional<ApiStatus> status = decode_status(response.body);
    throw KubeError(error_message(response.status, response.body), response.status,
                    status ? status->reason : "");
  }
  return response.json();
}

HttpResponse KubeClient::stream(const std::string& path,
                                const std::function<bool(std::string_view)>& on_body,
                                const std::atomic<bool>* cancel) {
  return perform_with_retries(Call{"GET", path, "", "", on_body, cancel});
}

std::string KubeClient::error_message(int status, const std::string& body) const {
  return format_api_error(status, body, {config_.user_name, config_.context_name, config_.server});
}

std::string url_escape(std::string_view value) {
  std::string error;
  const CurlApi* curl = curl_api(&error);
  // Unreachable in practice: a CurlTransport, made before any path is built, refuses to
  // exist without libcurl.
  if (curl == nullptr) throw KubeError(error);
  char* escaped = curl->easy_escape(nullptr, value.data(), static_cast<int>(value.size()));
  if (escaped == nullptr)
    throw KubeError("cannot escape a query value of " + std::to_string(value.size()) + " bytes");
  std::string out(escaped);
  curl->free(escaped);
  return out;
}

}  // namespace trainjob
