#include "kube/api_status.h"

#include <algorithm>
#include <cmath>

#include "load/json.h"

namespace trainjob {
namespace {

std::string default_reason(int http_status) {
  switch (http_status) {
    case 400:
      return "BadRequest";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "NotFound";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 413:
      return "RequestEntityTooLarge";
    case 415:
      return "UnsupportedMediaType";
    case 422:
      return "Invalid";
    case 429:
      return "TooManyRequests";
    case 500:
      return "InternalError";
    case 503:
      return "ServiceUnavailable";
    case 504:
      return "Timeout";
    default:
      return "Unknown";
  }
}

/// A 403 from the authorizer, or one that does not say; not one from an admission plugin,
/// which no Role would lift.
bool authorization_denied(const std::optional<ApiStatus>& status) {
  return !status || status->message.empty() || authorizer_denied(status->message);
}

std::string hint(int http_status, const Identity& who, const std::optional<ApiStatus>& status) {
  std::string as = "user \"" + who.user + "\" of context \"" + who.context + "\"";
  if (http_status == 401)
    return "\nhint: the server at " + who.server + " did not accept the credentials of " + as +
           "; check the token, client certificate or exec plugin in the kubeconfig";
  if (http_status == 403 && authorization_denied(status))
    return "\nhint: " + as +
           " is authenticated but not allowed to do this; ask for a Role granting it "
           "(kubectl auth can-i)";
  return "";
}

}  // namespace

bool authorizer_denied(const std::string& message) {
  return message.find("\" cannot ") != std::string::npos;
}

std::optional<ApiStatus> decode_status(const std::string& body) {
  Json json = Json::parse(body, nullptr, false);
  if (json.is_discarded() || !json.is_object() || string_member(json, "kind") != "Status")
    return std::nullopt;
  ApiStatus status;
  status.code = json.value("code", 0);
  status.reason = string_member(json, "reason");
  status.message = string_member(json, "message");
  auto details = json.find("details");
  if (details != json.end() && details->is_object()) {
    status.kind = string_member(*details, "kind");
    status.name = string_member(*details, "name");
    if (details->contains("retryAfterSeconds") && (*details)["retryAfterSeconds"].is_number())
      status.retry_after_seconds = (*details)["retryAfterSeconds"].get<double>();
    auto causes = details->find("causes");
    if (causes != details->end() && causes->is_array()) {
      for (const Json& cause : *causes) {
        status.causes.push_back({string_member(cause, "reason"), string_member(cause, "message"),
                                 string_member(cause, "field")});
      }
    }
  }
  return status;
}

std::string format_api_error(int http_status, const std::string& body, const Identity& who) {
  std::optional<ApiStatus> status = decode_status(body);
  std::string reason =
      status && !status->reason.empty() ? status->reason : default_reason(http_status);
  std::string message;
  if (status) {
    message = status->message;
  } else {
    message = "the server answered " + std::to_string(http_status);
    std::string text = body.substr(0, 200);
    if (!text.empty()) message += ": " + text;
  }
  std::string out = "Error from server (" + reason + "): " + message;
  if (http_status == 401 && (!status || status->message.empty()))
    out = "error: You must be logged in to the server (Unauthorized)";
  if (status) {
    for (const StatusCause& cause : status->causes) {
      // The message often repeats the causes; each is still listed so none is lost.
      out += "\n  " + (cause.field.empty() ? "" : cause.field + ": ") + cause.message;
      if (!cause.reason.empty()) out += " (" + cause.reason + ")";
    }
  }
  return out + hint(http_status, who, status);
}

std::optional<double> retry_delay(const RetryPolicy& policy, int retry, int http_status,
                                  const std::string& retry_after_header,
                                  const std::optional<ApiStatus>& status) {
  bool retryable = http_status == 429 || http_status == 500 || http_status == 502 ||
                   http_status == 503 || http_status == 504;
  if (!retryable || retry >= policy.max_retries) return std::nullopt;
  if (!retry_after_header.empty() &&
      retry_after_header.find_first_not_of("0123456789") == std::string::npos) {
    return std::min(std::stod(retry_after_header), policy.max_retry_after);
  }
  if (status && status->retry_after_seconds)
    return std::min(*status->retry_after_seconds, policy.max_retry_after);
  // first_delay × 2^retry, exactly; ldexp rather than pow, whose glibc 2.29 version would
  // raise the release build's glibc baseline (docs/install.md).
  return std::min(std::ldexp(policy.first_delay, retry), policy.max_delay);
}

std::string warning_text(const std::string& header) {
  // 299 - "text"  (the agent may be a host name instead of "-")
  size_t quote = header.find('"');
  if (quote == std::string::npos) return header;
  size_t end = header.rfind('"');
  if (end <= quote) return header.substr(quote + 1);
  std::string text = header.substr(quote + 1, end - quote - 1);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace trainjob
