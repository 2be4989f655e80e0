// The server's Status error objects, how they are said to the user, and which failures are
// worth another try.
#ifndef TRAINJOB_KUBE_API_STATUS_H_
#define TRAINJOB_KUBE_API_STATUS_H_

#include <optional>
#include <string>
#include <vector>

namespace trainjob {

struct StatusCause {
  std::string reason;
  std::string message;
  std::string field;
};

struct ApiStatus {
  int code = 0;
  std::string reason;
  std::string message;
  std::string kind;
  std::string name;
  std::vector<StatusCause> causes;
  std::optional<double> retry_after_seconds;
};

/// A `kind: Status` body; nullopt when the body is something else (HTML from a proxy...).
std::optional<ApiStatus> decode_status(const std::string& body);

/// Whether a 403's text is the authorizer's (RBAC's `User "u" cannot patch resource ...`):
/// about the user's rights, unlike an admission plugin's (a quota, PodSecurity, a webhook).
bool authorizer_denied(const std::string& message);

/// Who was asking, for the hints of 401 and 403.
struct Identity {
  std::string user;
  std::string context;
  std::string server;
};

/// kubectl's wording: `Error from server (Reason): message`, then each cause on its own line
/// as `field: message`, then a hint for 401/403.
std::string format_api_error(int http_status, const std::string& body, const Identity& who);

struct RetryPolicy {
  int max_retries = 5;
  double first_delay = 0.25;    ///< doubles with each retry
  double max_delay = 8;         ///< of the computed backoff
  double max_retry_after = 30;  ///< a longer Retry-After is cut to this
};

/// Seconds to wait before retry number `retry` (0 for the first), or nullopt when the answer
/// is final: only 429 and 5xx are retried, Retry-After (header, else retryAfterSeconds)
/// wins over the backoff.
std::optional<double> retry_delay(const RetryPolicy& policy, int retry, int http_status,
                                  const std::string& retry_after_header,
                                  const std::optional<ApiStatus>& status);

/// The text of a `Warning` header (`299 - "text"`), unquoted.
std::string warning_text(const std::string& header);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_API_STATUS_H_
