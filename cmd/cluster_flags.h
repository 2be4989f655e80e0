// The kubectl connection flags every cluster command takes, and the connection they make.
#ifndef TRAINJOB_CMD_CLUSTER_FLAGS_H_
#define TRAINJOB_CMD_CLUSTER_FLAGS_H_

#include <functional>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "kube/client.h"
#include "kube/curl_transport.h"
#include "kube/environment.h"
#include "kube/http.h"
#include "kube/rest_config.h"

namespace trainjob {

/// Declares --kubeconfig, --context, --cluster, --user, -n/--namespace, --request-timeout
/// and -v/--v on `app`, with kubectl's names and meanings.
void add_cluster_flags(CLI::App* app, ConnectionFlags* flags);

/// A resolved connection: the real environment, clock and libcurl transport.
class ClusterSession {
 public:
  explicit ClusterSession(const ConnectionFlags& flags);
  KubeClient& client() { return *client_; }
  const std::string& name_space() const { return client_->config().name_space; }
  const Clock& clock() const { return clock_; }

 private:
  RealEnvironment env_;
  RealClock clock_;
  CurlTransport transport_;
  std::unique_ptr<KubeClient> client_;
};

/// Runs a cluster command: a KubeError becomes `error: ...` on stderr and exit code 1.
int run_cluster_command(const std::function<int()>& body);

/// -o for cluster commands: table (the default), yaml, json, or name where allowed.
void add_output_flag(CLI::App* app, std::string* output, const std::vector<std::string>& allowed);

}  // namespace trainjob

#endif  // TRAINJOB_CMD_CLUSTER_FLAGS_H_
