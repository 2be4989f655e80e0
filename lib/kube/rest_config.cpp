#include "kube/rest_config.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "crypto/base64.h"
#include "kube/kube_error.h"
#include "model/vocabulary.h"
#include "util/duration.h"

namespace trainjob {
namespace {

const char kServiceAccountDir[] = "/var/run/secrets/kubernetes.io/serviceaccount";

std::string read_required(const Environment& env, const std::string& path,
                          const std::string& what) {
  std::optional<std::string> text = env.read_file(path);
  if (!text) throw KubeError("unable to read " + what + " \"" + path + "\"");
  return *text;
}

/// A true/false field; anything else is refused (Json::value would throw its own exception).
bool bool_member(const Json& object, const char* key, const std::string& owner) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return false;
  if (!it->is_boolean()) throw KubeError(owner + ": " + key + ": expected true or false");
  return it->get<bool>();
}

/// `<name>-data` (base64) wins over `<name>` (a file path relative to the defining file).
std::string file_or_data(const KubeconfigEntry& entry, const std::string& name,
                         const Environment& env, const std::string& owner) {
  std::string data = string_member(entry.value, (name + "-data").c_str());
  if (!data.empty()) {
    std::optional<std::string> decoded = decode_base64(data);
    if (!decoded) throw KubeError(owner + ": " + name + "-data: not valid base64");
    return *decoded;
  }
  std::string path = string_member(entry.value, name.c_str());
  if (path.empty()) return "";
  return read_required(env, resolve_path(entry.origin_dir, path), name);
}

ExecConfig read_exec(const KubeconfigEntry& user, const std::string& owner) {
  const Json& exec = user.value["exec"];
  ExecConfig out;
  out.api_version = string_member(exec, "apiVersion");
  out.command = string_member(exec, "command");
  if (out.command.empty()) throw KubeError(owner + ": exec: command must be specified");
  if (out.api_version.empty()) throw KubeError(owner + ": exec: apiVersion must be specified");
  // A command with a path separator is relative to the file that names it, a bare name
  // is looked up on PATH.
  if (out.command.find('/') != std::string::npos)
    out.command = resolve_path(user.origin_dir, out.command);
  if (exec.contains("args") && exec["args"].is_array()) {
    for (const Json& arg : exec["args"])
      if (arg.is_string()) out.args.push_back(arg.get<std::string>());
  }
  if (exec.contains("env") && exec["env"].is_array()) {
    for (const Json& var : exec["env"])
      out.env.emplace_back(string_member(var, "name"), string_member(var, "value"));
  }
  out.interactive_mode = string_member(exec, "interactiveMode");
  if (out.interactive_mode.empty()) {
    if (out.api_version == kExecCredentialApiVersion)
      throw KubeError(owner + ": exec: interactiveMode must be specified for " + out.api_version);
    out.interactive_mode = "IfAvailable";
  }
  out.provide_cluster_info = bool_member(exec, "provideClusterInfo", owner + ": exec");
  out.install_hint = string_member(exec, "installHint");
  return out;
}

void read_user(const KubeconfigEntry& user, const std::string& name, const Environment& env,
               RestConfig* out) {
  std::string owner = "user \"" + name + "\"";
  if (user.value.contains("auth-provider")) {
    throw KubeError(owner + ": auth-provider \"" +
                    string_member(user.value["auth-provider"], "name") +
                    "\" is not supported; use an exec credential plugin (for example "
                    "gke-gcloud-auth-plugin or kubelogin)");
  }
  if (user.value.contains("username") || user.value.contains("password"))
    throw KubeError(owner + ": basic authentication was removed from Kubernetes in 1.19");
  out->tls.client_cert_pem = file_or_data(user, "client-certificate", env, owner);
  out->tls.client_key_pem = file_or_data(user, "client-key", env, owner);
  if (out->tls.client_cert_pem.empty() != out->tls.client_key_pem.empty())
    throw KubeError(owner + ": client-certificate and client-key must be given together");
  out->token = string_member(user.value, "token");
  std::string token_file = string_member(user.value, "tokenFile");
  if (!token_file.empty()) out->token_file = resolve_path(user.origin_dir, token_file);
  if (user.value.contains("exec")) out->exec = read_exec(user, owner);
}

void read_cluster(const KubeconfigEntry& cluster, const std::string& name, const Environment& env,
                  RestConfig* out) {
  std::string owner = "cluster \"" + name + "\"";
  out->server = string_member(cluster.value, "server");
  if (out->server.empty()) throw KubeError(owner + " has no server defined");
  while (!out->server.empty() && out->server.back() == '/')
    out->server.pop_back();
  out->tls.insecure_skip_verify = bool_member(cluster.value, "insecure-skip-tls-verify", owner);
  // As client-go: a CA that would then be ignored is a mistake to report, not to pass over.
  bool has_ca = !string_member(cluster.value, "certificate-authority").empty() ||
                !string_member(cluster.value, "certificate-authority-data").empty();
  if (out->tls.insecure_skip_verify && has_ca)
    throw KubeError("specifying a root certificates file with the insecure flag is not allowed");
  out->tls.ca_pem = file_or_data(cluster, "certificate-authority", env, owner);
  out->tls.server_name = string_member(cluster.value, "tls-server-name");
  out->tls.proxy_url = string_member(cluster.value, "proxy-url");
  if (!out->tls.proxy_url.empty()) {
    const std::string& proxy = out->tls.proxy_url;
    if (proxy.rfind("http://", 0) != 0 && proxy.rfind("https://", 0) != 0 &&
        proxy.rfind("socks5://", 0) != 0)
      throw KubeError(owner + ": proxy-url \"" + proxy +
                      "\": scheme must be http, https or socks5");
  }
}

Json cluster_info(const RestConfig& config, const KubeconfigEntry& cluster) {
  Json info = {{"server", config.server},
               {"insecure-skip-tls-verify", config.tls.insecure_skip_verify}};
  if (!config.tls.server_name.empty()) info["tls-server-name"] = config.tls.server_name;
  if (!config.tls.ca_pem.empty())
    info["certificate-authority-data"] = encode_base64(config.tls.ca_pem);
  if (!config.tls.proxy_url.empty()) info["proxy-url"] = config.tls.proxy_url;
  if (cluster.value.contains("extensions") && cluster.value["extensions"].is_array()) {
    for (const Json& extension : cluster.value["extensions"]) {
      if (string_member(extension, "name") == kExecClusterExtension)
        info["config"] = extension.value("extension", Json());
    }
  }
  return info;
}

RestConfig in_cluster_config(const ConnectionFlags& flags, const Environment& env) {
  std::optional<std::string> host = env.variable("KUBERNETES_SERVICE_HOST");
  std::optional<std::string> port = env.variable("KUBERNETES_SERVICE_PORT");
  std::string dir = kServiceAccountDir;
  if (!host || !port || !env.read_file(dir + "/token")) {
    throw KubeError(
        "no configuration has been provided: pass --kubeconfig, set KUBECONFIG or create "
        "~/.kube/config (or run in a pod with a service account)");
  }
  RestConfig config;
  config.in_cluster = true;
  bool ipv6 = host->find(':') != std::string::npos;
  config.server = "https://" + (ipv6 ? "[" + *host + "]" : *host) + ":" + *port;
  config.token_file = dir + "/token";
  config.tls.ca_pem = env.read_file(dir + "/ca.crt").value_or("");
  config.context_name = "in-cluster";
  config.user_name = "the pod's service account";
  if (!flags.name_space.empty()) {
    config.name_space = flags.name_space;
  } else if (auto ns = env.variable("POD_NAMESPACE"); ns && !ns->empty()) {
    config.name_space = *ns;
  } else if (auto file = env.read_file(dir + "/namespace"); file && !file->empty()) {
    config.name_space = *file;
  }
  return config;
}

const KubeconfigEntry& named(const std::map<std::string, KubeconfigEntry>& entries,
                             const std::string& name, const std::string& what) {
  auto it = entries.find(name);
  if (it == entries.end()) throw KubeError(what + " \"" + name + "\" does not exist");
  return it->second;
}

/// The cluster and user of the context (or of --cluster and --user without one), the flags
/// taking precedence, and the namespace: -n, else the context's.
RestConfig kubeconfig_rest_config(const Kubeconfig& config, const ConnectionFlags& flags,
                                  const std::string& context_name, const Environment& env) {
  RestConfig out;
  Json no_context = Json::object();
  KubeconfigEntry empty{no_context, "", ""};
  const KubeconfigEntry& context =
      context_name.empty() ? empty : named(config.contexts, context_name, "context");
  out.context_name = context_name;
  out.cluster_name =
      flags.cluster.empty() ? string_member(context.value, "cluster") : flags.cluster;
  out.user_name = flags.user.empty() ? string_member(context.value, "user") : flags.user;
  const KubeconfigEntry& cluster = named(config.clusters, out.cluster_name, "cluster");
  read_cluster(cluster, out.cluster_name, env, &out);
  if (!out.user_name.empty())
    read_user(named(config.users, out.user_name, "auth info"), out.user_name, env, &out);
  if (out.exec && out.exec->provide_cluster_info)
    out.exec->cluster_info = cluster_info(out, cluster);
  std::string context_namespace = string_member(context.value, "namespace");
  if (!flags.name_space.empty()) {
    out.name_space = flags.name_space;
  } else if (!context_namespace.empty()) {
    out.name_space = context_namespace;
  }
  return out;
}

}  // namespace

RestConfig resolve_rest_config(const Kubeconfig& config, const ConnectionFlags& flags,
                               const Environment& env) {
  std::optional<double> timeout = parse_duration(flags.request_timeout);
  if (!timeout)
    throw KubeError("--request-timeout: expected a duration such as 30s or 1m, found \"" +
                    flags.request_timeout + "\"");
  RestConfig out;
  std::string context_name = flags.context.empty() ? config.current_context : flags.context;
  if (context_name.empty() && flags.cluster.empty()) {
    if (!flags.kubeconfig.empty() || !config.empty()) {
      throw KubeError(
          "no context is selected: set current-context in the kubeconfig or pass "
          "--context (files read: " +
          std::to_string(config.files.size()) + ")");
    }
    out = in_cluster_config(flags, env);
  } else {
    out = kubeconfig_rest_config(config, flags, context_name, env);
  }
  out.timeout_seconds = *timeout;
  out.verbosity = flags.verbosity;
  return out;
}
}  // namespace trainjob
