// One HTTP exchange, as the client needs it, behind an interface so that everything above
// the transport is tested without a server.
#ifndef TRAINJOB_KUBE_HTTP_H_
#define TRAINJOB_KUBE_HTTP_H_

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trainjob {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

/// How to reach and trust the server; empty strings mean "not set".
struct TlsSettings {
  std::string ca_pem;  ///< trusted CAs; empty: the system's
  bool insecure_skip_verify = false;
  std::string server_name;  ///< verify the certificate for this name (tls-server-name)
  std::string client_cert_pem;
  std::string client_key_pem;
  std::string proxy_url;
};

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  HttpHeaders headers;
  std::string body;
  TlsSettings tls;
  double timeout_seconds = 0;  ///< whole request; 0: none
  double connect_timeout_seconds = 0;
  /// Set for streams (logs, watch): a 2xx body is handed over piece by piece instead of
  /// being kept; returning false stops the transfer.
  std::function<bool(std::string_view)> on_body;
  const std::atomic<bool>* cancel = nullptr;  ///< stops the transfer when it becomes true
};

struct HttpResponse {
  int status = 0;     ///< 0 when no response arrived
  std::string error;  ///< why no (complete) response arrived: connection, DNS, TLS, timeout
  bool timed_out = false;
  HttpHeaders headers;
  std::string body;  ///< empty for streamed 2xx bodies

  /// The first header of that name (case-insensitive), or "".
  std::string header(std::string_view name) const;
  std::vector<std::string> headers_named(std::string_view name) const;
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  virtual HttpResponse perform(const HttpRequest& request) = 0;
};

/// "host" of "https://host:port/path" (IPv6 brackets kept) and its port (443/80 by default).
bool split_url_authority(const std::string& url, std::string* scheme, std::string* host, int* port);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_HTTP_H_
