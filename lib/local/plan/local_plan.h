// `run --local`: the rendered Jobs turned into processes for this machine. Every pod of
// every Job becomes a process (one per container) on loopback; what a pod would find in
// a cluster is recreated by rewriting: pod DNS names become 127.0.0.1, the rendezvous
// port a free local port, and volume mount paths the local directories that back them.
#ifndef TRAINJOB_LOCAL_PLAN_LOCAL_PLAN_H_
#define TRAINJOB_LOCAL_PLAN_LOCAL_PLAN_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "load/json.h"
#include "local/plan/local_success.h"
#include "local/plan/pod_env.h"

namespace trainjob {

struct LocalVolume {
  enum class Kind { kConfigMap, kHostPath, kEmptyDir };
  std::string name;
  Kind kind = Kind::kEmptyDir;
  std::string host_dir;              ///< where it lives on this machine
  std::string work_relative;         ///< configMap, emptyDir: host_dir beneath the work dir
  bool read_only = false;            ///< materialised without write permission
  const Json* config_map = nullptr;  ///< kConfigMap: the ConfigMap (null: optional, absent)
  Json source = Json::object();      ///< the volume's configMap / hostPath / emptyDir
};

struct LocalMount {
  std::string mount_path;  ///< inside the container
  std::string host_path;   ///< on this machine
};

struct LocalContainer {
  std::string name;
  std::string image;
  std::vector<std::string> argv;
  EnvList env;
  std::string working_dir;  ///< empty: the directory `run` was started from
  std::string path_prefix;  ///< put first on PATH (the image's mapped directory)
};

struct LocalPod {
  std::string label;  ///< `node-0`, as `logs` prefixes lines; a legacy kind's `master-0`
  std::string step;   ///< `node`; a legacy kind's replica type (`master`)
  std::string job;    ///< the Job it belongs to
  std::string name_space;
  std::string name;      ///< `<hostname>-local`
  std::string hostname;  ///< `<job>-<index>`; the template's own (`J-master-0`) when it sets one
  int64_t index = 0;
  std::vector<LocalVolume> volumes;
  std::vector<LocalContainer> init_containers;
  std::vector<LocalContainer> containers;
};

/// Jobs run stage by stage: initializers first, the rest once they all succeeded.
struct LocalPlan {
  std::vector<std::vector<LocalPod>> stages;
  /// A legacy kind's success rule: its pods run until the rule is decided, and it, not the
  /// first failure, decides the outcome. Without one every pod must succeed.
  std::optional<LocalSuccessRule> rule;
  std::vector<std::string> rewrites;  ///< what was changed to run locally, for the user
  std::vector<std::string> warnings;  ///< what a cluster would enforce and this run does not
};

/// The default --max-pods: every pod is at least one process, all started at once, and
/// a multi-node test that fits one machine needs far fewer.
inline constexpr int64_t kDefaultMaxLocalPods = 64;

struct LocalOptions {
  std::string work_dir;     ///< volumes of pod P live under <work_dir>/<P>/
  std::string master_port;  ///< the rendezvous port (PET_MASTER_PORT, DMLC_TRACKER_PORT, ...)
  /// Another free local port each call, for each `pod-host:port` address the pods name
  /// (TF_CONFIG's workers all on 2222 would collide on loopback).
  std::function<std::string()> free_port;
  std::string ip = "127.0.0.1";
  std::string node_name = "localhost";
  /// Image (with or without tag) -> directory put first on PATH for its containers.
  std::map<std::string, std::string> image_dirs;
  /// Most pods the plan may hold (--max-pods), checked before anything proportional to
  /// the pod count is built.
  int64_t max_pods = kDefaultMaxLocalPods;
  /// hostPath `/`, `/etc`, `/proc`, `/sys`, `/dev` are refused unless set (--allow-host-path).
  bool allow_host_path = false;
};

/// How many pods the Jobs among `objects` run, counted without building any of them
/// (saturating, so `numNodes: 2147483647` summed over Jobs stays exact).
int64_t local_pod_count(const std::vector<Json>& objects);

/// Builds the plan for the rendered `objects`. Returns false with `*error` (naming the
/// pod, container and variable, or the volume and field) when something cannot run
/// locally: more pods than `options.max_pods`, a volume name, ConfigMap key, item path or
/// mode that would write outside the work directory, a refused host path.
bool plan_local_run(const std::vector<Json>& objects, const ConfigMapIndex& config_maps,
                    const LocalOptions& options, LocalPlan* plan, std::string* error);

/// Replaces `from` -> `to` where `from` stands on its own in `text`: a mount path not
/// inside a longer path, a host name not inside a longer name. Longer `from`s first.
std::string rewrite_paths(const std::string& text, const std::vector<LocalMount>& mounts);
std::string rewrite_hosts(const std::string& text, const std::vector<std::string>& hosts,
                          const std::string& ip);
/// Replaces each `from` of `addresses` (`host:port`) standing on its own in `text` by its
/// `to` (`127.0.0.1:40123`).
std::string rewrite_addresses(const std::string& text,
                              const std::vector<std::pair<std::string, std::string>>& addresses);

/// `repo/name:tag` and `repo/name@sha256:...` -> `repo/name`.
std::string image_repository(const std::string& image);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_LOCAL_PLAN_H_
