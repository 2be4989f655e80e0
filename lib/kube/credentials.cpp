#include "kube/credentials.h"

#include <cstdio>
#include <ctime>

#include "kube/kube_error.h"
#include "util/duration.h"

namespace trainjob {
namespace {

// client-go re-reads a token file about once a minute, so rotated tokens are picked up.
constexpr double kTokenFileRefreshSeconds = 60;
// Without --request-timeout a plugin still may not hang us: client-go's default is a minute.
constexpr double kDefaultExecTimeoutSeconds = 60;

/// Why a plugin that ran gave no credential, or "" when it ended by itself with exit 0.
std::string plugin_failure(const ProcessResult& result, const std::string& command,
                           double timeout_seconds) {
  std::string plugin = "exec plugin \"" + command + "\"";
  switch (result.end) {
    case ProcessEnd::kTimedOut:
      return plugin + ": no answer within " + seconds_text(timeout_seconds);
    case ProcessEnd::kStdoutTooLarge:
      return plugin + ": printed more than 1 MiB";
    case ProcessEnd::kStderrTooLarge:
      return plugin + ": printed more than 1 MiB on stderr";
    case ProcessEnd::kExited:
      break;
  }
  if (result.exit_code != 0)
    return plugin + " failed with exit code " + std::to_string(result.exit_code);
  return "";
}

std::string strip_ansi(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {
      while (i < text.size() && !std::isalpha(static_cast<unsigned char>(text[i])))
        ++i;
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace

std::optional<double> parse_rfc3339(const std::string& text) {
  int year, month, day, hour, minute;
  double second;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%n", &year, &month, &day, &hour, &minute,
                  &second, &consumed) != 6)
    return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  double epoch = static_cast<double>(timegm(&tm)) + second;
  std::string zone = text.substr(consumed);
  if (zone == "Z" || zone == "z") return epoch;
  int zone_hours, zone_minutes;
  if (zone.size() == 6 &&
      std::sscanf(zone.c_str() + 1, "%2d:%2d", &zone_hours, &zone_minutes) == 2) {
    double offset = zone_hours * 3600.0 + zone_minutes * 60.0;
    return zone[0] == '+' ? epoch - offset : epoch + offset;
  }
  return std::nullopt;
}

Credential parse_exec_credential(const std::string& output, const std::string& api_version) {
  Json json = Json::parse(output, nullptr, false);
  if (json.is_discarded() || !json.is_object())
    throw KubeError("exec plugin: the output is not an ExecCredential in JSON");
  std::string got = string_member(json, "apiVersion");
  if (got != api_version)
    throw KubeError("exec plugin: answered with apiVersion \"" + got + "\", expected \"" +
                    api_version + "\"");
  auto status = json.find("status");
  if (status == json.end() || !status->is_object())
    throw KubeError("exec plugin: the ExecCredential has no status");
  Credential credential;
  credential.token = string_member(*status, "token");
  credential.client_cert_pem = string_member(*status, "clientCertificateData");
  credential.client_key_pem = string_member(*status, "clientKeyData");
  if (credential.client_cert_pem.empty() != credential.client_key_pem.empty())
    throw KubeError("exec plugin: clientCertificateData and clientKeyData must come together");
  if (credential.token.empty() && credential.client_cert_pem.empty())
    throw KubeError("exec plugin: status has neither a token nor a client certificate");
  std::string expiry = string_member(*status, "expirationTimestamp");
  if (!expiry.empty()) {
    credential.expires_at = parse_rfc3339(expiry);
    if (!credential.expires_at)
      throw KubeError("exec plugin: expirationTimestamp \"" + expiry + "\" is not RFC 3339");
  }
  return credential;
}

double exec_plugin_timeout(double request_timeout_seconds) {
  return request_timeout_seconds > 0 ? request_timeout_seconds : kDefaultExecTimeoutSeconds;
}

std::string exec_info(const ExecConfig& exec, bool interactive) {
  Json spec = {{"interactive", interactive}};
  if (exec.provide_cluster_info) spec["cluster"] = exec.cluster_info;
  Json info = {{"kind", "ExecCredential"}, {"apiVersion", exec.api_version}, {"spec", spec}};
  return info.dump();
}

CredentialSource::CredentialSource(const RestConfig& config, const Environment& env,
                                   const Clock& clock)
    : config_(config), env_(env), clock_(clock) {}

Credential CredentialSource::run_plugin() {
  const ExecConfig& exec = *config_.exec;
  bool terminal = env_.stdin_is_terminal();
  if (exec.interactive_mode == "Always" && !terminal)
    throw KubeError("exec plugin \"" + exec.command +
                    "\" needs a terminal (interactiveMode: Always) and stdin is not one");
  bool interactive = exec.interactive_mode != "Never" && terminal;
  ProcessRequest request{exec.command, exec.args, exec.env, interactive};
  request.extra_env.emplace_back("KUBERNETES_EXEC_INFO", exec_info(exec, interactive));
  request.timeout_seconds = exec_plugin_timeout(config_.timeout_seconds);
  request.output_limit = kExecOutputLimitBytes;
  ProcessResult result = env_.run(request);
  if (!result.started && result.end == ProcessEnd::kExited) {
    std::string hint = exec.install_hint.empty() ? "" : "\n" + strip_ansi(exec.install_hint);
    throw KubeError("exec plugin: executable \"" + exec.command + "\" not found" + hint);
  }
  std::string failure = plugin_failure(result, exec.command, request.timeout_seconds);
  if (!failure.empty()) throw KubeError(failure);
  Credential credential = parse_exec_credential(result.out, exec.api_version);
  credential.generation = ++runs_;
  return credential;
}

Credential CredentialSource::current() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (config_.exec && config_.token.empty()) {
    bool expired = cached_ && cached_->expires_at && *cached_->expires_at <= clock_.now();
    if (!cached_ || expired) cached_ = run_plugin();
    return *cached_;
  }
  Credential credential;
  credential.token = config_.token;
  if (credential.token.empty() && !config_.token_file.empty()) {
    double now = clock_.now();
    if (file_token_read_at_ < 0 || now - file_token_read_at_ > kTokenFileRefreshSeconds) {
      std::optional<std::string> text = env_.read_file(config_.token_file);
      if (!text) throw KubeError("unable to read tokenFile \"" + config_.token_file + "\"");
      file_token_ = *text;
      while (!file_token_.empty() && std::isspace(static_cast<unsigned char>(file_token_.back())))
        file_token_.pop_back();
      file_token_read_at_ = now;
    }
    credential.token = file_token_;
  }
  return credential;
}

bool CredentialSource::refresh_after_unauthorized(const Credential& used) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!config_.exec || !config_.token.empty()) {
    file_token_read_at_ = -1;  // a rotated token file is read again
    return !config_.token_file.empty() && config_.token.empty();
  }
  if (cached_ && cached_->generation != used.generation) return true;  // already replaced
  cached_ = run_plugin();
  return true;
}

}  // namespace trainjob
