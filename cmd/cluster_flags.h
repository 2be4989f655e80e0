// The kubectl connection flags every cluster command takes, and the connection they make.
#ifndef TRAINJOB_CMD_CLUSTER_FLAGS_H_
#define TRAINJOB_CMD_CLUSTER_FLAGS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kube/client.h"
#include "kube/curl_transport.h"
#include "kube/environment.h"
#include "kube/http.h"
#include "kube/rest_config.h"
#include "status/trainjob_names.h"

namespace trainjob {

/// Declares --kubeconfig, --context, --cluster, --user, -n/--namespace, --request-timeout
/// and -v/--v on `app`, with kubectl's names and meanings.
void add_cluster_flags(CLI::App* app, ConnectionFlags* flags);

/// Declares the positional words naming the TrainJob of status, logs, delete, suspend and
/// resume: NAME, TYPE/NAME or TYPE NAME, with kubectl's TYPE words for the kinds we manage
/// (with `sweeps`, for status and delete, optimizationjob too).
CLI::Option* add_target_arguments(CLI::App* app, std::vector<std::string>* words,
                                  bool sweeps = false);
/// The job the words name; nullopt after printing why they cannot be used (exit 1, as
/// kubectl's "doesn't have a resource type").
std::optional<TrainJobTarget> target_of(const std::vector<std::string>& words);

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

/// run_cluster_command over a new session for a command pointed at one job (status, logs,
/// delete, suspend, resume, wait, events): "not found" names `kind`, the TYPE the user gave
/// (null: none), and the other namespaces that have the job.
int run_target_command(const ConnectionFlags& flags, const ManagedKind* kind,
                       const std::function<int(ClusterSession&)>& body);

/// --runtimes-from-cluster: read the (Cluster)TrainingRuntimes installed in the cluster.
/// `automatic` (submit): a value, auto (the default: when the CRD is served), true or false;
/// otherwise a plain switch (true when given).
void add_runtimes_from_cluster_flag(CLI::App* app, std::string* mode, bool automatic);

/// -o for cluster commands: table (the default), yaml, json, name where allowed, or
/// jsonpath=TEMPLATE (the example shows one in the help).
void add_output_flag(CLI::App* app, std::string* output, const std::vector<std::string>& allowed,
                     const std::string& jsonpath_example);

}  // namespace trainjob

#endif  // TRAINJOB_CMD_CLUSTER_FLAGS_H_
