// The (Cluster)TrainingRuntimes installed in a cluster, read for `submit` and `runtimes`
// so that a TrainJob compiles against what the Trainer there would use.
#ifndef TRAINJOB_CLUSTER_CLUSTER_RUNTIMES_H_
#define TRAINJOB_CLUSTER_CLUSTER_RUNTIMES_H_

#include <string>
#include <vector>

#include "kube/client.h"
#include "load/document.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

/// True when the API server serves ClusterTrainingRuntimes (the Trainer's CRDs are
/// installed), as its discovery document for trainer.kubeflow.org/v1alpha1 says.
bool cluster_serves_runtimes(KubeClient* client);

/// The ClusterTrainingRuntimes and the TrainingRuntimes of `name_space` in the cluster, as
/// documents named `cluster:KIND/NAME` (server-set metadata and status left out).
std::vector<Document> read_cluster_runtimes(KubeClient* client, const std::string& name_space);

/// One line per runtime the TrainJobs of `rendered` name that `cluster_runtimes` has and
/// the inputs do not: the cluster's is used, in place of a built-in one of that name where
/// there is one.
std::vector<std::string> cluster_runtime_notes(const RenderResult& rendered,
                                               const std::vector<Document>& cluster_runtimes);

/// --runtimes-from-cluster: the cluster's runtimes as `mode` says: none for false; for auto,
/// none when the cluster does not serve ClusterTrainingRuntimes or they are not readable (a
/// note on stderr says so); for true, either is an error (KubeError).
std::vector<Document> runtimes_from_cluster(const std::string& mode, KubeClient* client,
                                            const std::string& name_space);
/// A note on stderr for each runtime the TrainJobs take from the cluster.
void report_cluster_runtimes(const RenderResult& rendered,
                             const std::vector<Document>& cluster_runtimes);

}  // namespace trainjob

#endif  // TRAINJOB_CLUSTER_CLUSTER_RUNTIMES_H_
