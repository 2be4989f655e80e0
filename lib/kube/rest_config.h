// From kubeconfig and flags to one resolved connection: server, trust, identity, namespace.
#ifndef TRAINJOB_KUBE_REST_CONFIG_H_
#define TRAINJOB_KUBE_REST_CONFIG_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kube/environment.h"
#include "kube/http.h"
#include "kube/kubeconfig.h"

namespace trainjob {

/// The kubectl flags every cluster command takes.
struct ConnectionFlags {
  std::string kubeconfig;
  std::string context;
  std::string cluster;
  std::string user;
  std::string name_space;
  std::string request_timeout = "0";
  int verbosity = 0;
};

/// A `users[].user.exec` credential plugin.
struct ExecConfig {
  std::string api_version;
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string interactive_mode;  ///< Never, IfAvailable, Always
  bool provide_cluster_info = false;
  std::string install_hint;
  Json cluster_info;  ///< spec.cluster handed to the plugin when provide_cluster_info
};

struct RestConfig {
  std::string server;  ///< base URL without a trailing '/'
  TlsSettings tls;     ///< trust and client certificate
  std::string token;
  std::string token_file;
  std::optional<ExecConfig> exec;
  std::string name_space = "default";
  std::string context_name;
  std::string cluster_name;
  std::string user_name;
  double timeout_seconds = 0;
  int verbosity = 0;
  bool in_cluster = false;
};

/// Resolves as kubectl: --context or current-context; --cluster/--user override the
/// context's; -n over the context's namespace over "default"; with no configuration at
/// all, the in-cluster service account. Throws KubeError with kubectl's wording.
RestConfig resolve_rest_config(const Kubeconfig& config, const ConnectionFlags& flags,
                               const Environment& env);

}  // namespace trainjob

#endif  // TRAINJOB_KUBE_REST_CONFIG_H_
