// The files of the `<T>-flux-entrypoint` ConfigMap of the Flux policy: init.sh (run by the
// flux-installer init container: copies the Flux view into /mnt/flux and writes the
// hostlist and broker.toml) and entrypoint.sh (wraps the trainer's command: pod 0 starts
// the lead broker and `flux run`s the command, the others join as followers).
// Same resulting files and behaviour as Kubeflow Trainer v2.3's Flux plugin for the same
// inputs; the script text is this project's own.
#ifndef TRAINJOB_RENDER_POLICY_FLUX_SCRIPTS_H_
#define TRAINJOB_RENDER_POLICY_FLUX_SCRIPTS_H_

#include <cstdint>
#include <string>

namespace trainjob {

/// The settings upstream reads from the trainer's env (FLUX_VIEW_IMAGE,
/// FLUX_NETWORK_DEVICE, FLUX_QUEUE_POLICY), with upstream's defaults.
struct FluxSettings {
  std::string view_image = "ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy";
  std::string network_device = "eth0";
  std::string queue_policy = "fcfs";
};

struct FluxCluster {
  std::string trainjob;
  std::string name_space;  ///< empty: unknown at render time (see flux_connect_uri)
  int64_t nodes = 1;
  int64_t tasks_per_node = 1;
  int64_t gpus_per_node = 0;
  FluxSettings settings;
};

/// "start" for one item, else "start-last", as Flux idsets are written.
std::string flux_range(int64_t size, int64_t start);
/// The pods' hostnames as a Flux hostlist: "<T>-node-0-[0-2]".
std::string flux_hostlist(const std::string& trainjob, int64_t nodes);
/// How brokers reach each other: "tcp://%h.<T>.<ns>.svc.cluster.local:%p", or, with no
/// namespace known, "tcp://%h.<T>:%p", which the pod's DNS search path completes.
std::string flux_connect_uri(const FluxCluster& cluster);
/// `flux run` flags: "-N <nodes> -n <nodes×tasks>", plus "-g <gpus>" (per task) with GPUs.
std::string flux_run_flags(const FluxCluster& cluster);
/// `flux R encode` flags: "--cores=0-<tasks-1>", plus "--gpu=0-<gpus-1>" with GPUs.
std::string flux_resource_flags(const FluxCluster& cluster);

/// broker.toml as the init container writes it.
std::string flux_broker_config(const FluxCluster& cluster);
std::string flux_init_script(const FluxCluster& cluster);
std::string flux_entrypoint_script(const FluxCluster& cluster);

}  // namespace trainjob

#endif  // TRAINJOB_RENDER_POLICY_FLUX_SCRIPTS_H_
