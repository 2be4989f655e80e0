// Requests to the API server with everything kubectl does around them: credentials, retries
// of 429/5xx, one re-authentication on 401, Warning headers, `-v` tracing without secrets.
#ifndef TRAINJOB_KUBE_CLIENT_H_
#define TRAINJOB_KUBE_CLIENT_H_

#include <atomic>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "kube/api_status.h"
#include "kube/credentials.h"
#include "kube/environment.h"
#include "kube/http.h"
#include "kube/rest_config.h"
#include "load/json.h"

namespace trainjob {

struct ApiResponse {
  int status = 0;
  std::string body;
  HttpHeaders headers;
  bool ok() const { return status >= 200 && status < 300; }
  Json json() const;
};

class KubeClient {
 public:
  KubeClient(RestConfig config, HttpTransport* transport, const Environment* env,
             const Clock* clock);

  /// One request, retried as needed. Any HTTP answer is returned (404 may mean "absent");
  /// no answer at all (refused, DNS, TLS, timeout) throws KubeError naming the server.
  ApiResponse send(const std::string& method, const std::string& path, const std::string& body = "",
                   const std::string& content_type = "");
  /// Like send, but anything other than 2xx throws KubeError with the decoded Status.
  Json call(const std::string& method, const std::string& path, const std::string& body = "",
            const std::string& content_type = "");
  /// A long-lived GET (logs, watch): a 2xx body goes to `on_body` piece by piece. The
  /// request timeout bounds only the connection. Returns the final response: status 0
  /// with `error` set when the stream broke.
  HttpResponse stream(const std::string& path, const std::function<bool(std::string_view)>& on_body,
                      const std::atomic<bool>* cancel = nullptr);

  /// The user-facing message for a failed answer.
  std::string error_message(int status, const std::string& body) const;
  const RestConfig& config() const { return config_; }
  /// Requests sent so far, retries included (for benchmarks and -v).
  int request_count() const { return requests_.load(); }

 private:
  /// What a caller asks for; credentials are added per attempt.
  struct Call {
    std::string method;
    std::string path;
    std::string body;
    std::string content_type;
    std::function<bool(std::string_view)> on_body;
    const std::atomic<bool>* cancel = nullptr;
  };
  HttpRequest build(const Call& call, const Credential& credential) const;
  HttpResponse perform_traced(const HttpRequest& request);
  HttpResponse perform_with_retries(const Call& call);
  void report_warnings(const HttpResponse& response);
  [[noreturn]] void throw_transport_error(const HttpResponse& response) const;

  RestConfig config_;
  HttpTransport* transport_;
  const Clock* clock_;
  CredentialSource credentials_;
  RetryPolicy retry_policy_;
  std::atomic<int> requests_{0};
  std::mutex warnings_mutex_;
  std::set<std::string> warnings_seen_;
};

/// `value` escaped for a URL query.
std::string url_escape(std::string_view value);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_CLIENT_H_
