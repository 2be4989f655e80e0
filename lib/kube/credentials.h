// Who the client is: a static token, a token file, or an exec credential plugin, with the
// plugin's answer kept in memory until it expires (as client-go does).
#ifndef TRAINJOB_KUBE_CREDENTIALS_H_
#define TRAINJOB_KUBE_CREDENTIALS_H_

#include <mutex>
#include <optional>
#include <string>

#include "kube/environment.h"
#include "kube/rest_config.h"

namespace trainjob {

struct Credential {
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::optional<double> expires_at;  ///< seconds since the epoch; none: the process lifetime
  int generation = 0;                ///< which plugin run produced it
};

/// A plugin's answer is a small JSON document; more than this on stdout (or on stderr) is
/// a plugin gone wrong, and it is stopped.
constexpr size_t kExecOutputLimitBytes = size_t{1024} * 1024;

/// How long a plugin may run: the request timeout, or a minute when there is none.
double exec_plugin_timeout(double request_timeout_seconds);
/// Decodes a plugin's ExecCredential output; throws KubeError naming what is wrong.
Credential parse_exec_credential(const std::string& output, const std::string& api_version);
/// RFC 3339 time ("2026-01-02T03:04:05Z", offsets and fractions too) in epoch seconds.
std::optional<double> parse_rfc3339(const std::string& text);
/// The ExecCredential put in KUBERNETES_EXEC_INFO.
std::string exec_info(const ExecConfig& exec, bool interactive);

/// Thread-safe: log streams of many pods ask for credentials at once.
class CredentialSource {
 public:
  CredentialSource(const RestConfig& config, const Environment& env, const Clock& clock);
  /// The credential to send now; runs the plugin when there is none or it has expired.
  Credential current();
  /// After a 401 with `used`: forget it, unless another request already replaced it.
  /// Returns whether there is anything new to try.
  bool refresh_after_unauthorized(const Credential& used);
  bool uses_exec() const { return config_.exec.has_value(); }

 private:
  Credential run_plugin();
  const RestConfig& config_;
  const Environment& env_;
  const Clock& clock_;
  std::mutex mutex_;
  std::optional<Credential> cached_;
  int runs_ = 0;
  std::string file_token_;
  double file_token_read_at_ = -1;
};

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_CREDENTIALS_H_
