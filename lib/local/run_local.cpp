#include "local/run_local.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <netinet/in.h>
#include <random>
#include <set>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "local/launch_cache.h"
#include "local/local_mpi.h"
#include "local/local_volumes.h"
#include "local/plan/plan_checks.h"
#include "local/process_reaper.h"
#include "local/watchdog.h"
#include "util/beneath.h"
#include "util/terminal.h"

namespace trainjob {
namespace {

namespace fs = std::filesystem;

/// The environment variable by which a run finds its containers' processes.
constexpr const char* kMarkerName = "TRAINJOB_LOCAL_PROCESS";

/// "TRAINJOB_LOCAL_PROCESS=<random>.": unique to this run, so neither another run nor
/// a process that merely inherited an old value is taken for one of ours.
std::string run_marker() {
  std::random_device random;
  char token[17];
  std::snprintf(token, sizeof token, "%08x%08x", random(), random());
  return std::string(kMarkerName) + "=" + token + ".";
}

void reap_children() {
  while (::waitpid(-1, nullptr, WNOHANG) > 0) {
  }
}

/// What a run holds from the moment the work directory exists, released however the
/// run ends (a returned error, an exception): the pods' leftover processes are ended,
/// the work directory removed unless kept, and the watchdog told it has nothing to do.
class RunResources {
 public:
  RunResources(Watchdog* watchdog, bool keep, std::FILE* log)
      : watchdog_(watchdog), keep_(keep), log_(log) {}
  ~RunResources() {
    end_descendants();
    if (keep_) {
      std::fprintf(log_, "Kept the work directory %s\n", watchdog_->work_dir().c_str());
    } else {
      remove_tree(watchdog_->work_dir());
    }
    watchdog_->finish();
  }
  RunResources(const RunResources&) = delete;
  RunResources& operator=(const RunResources&) = delete;

 private:
  /// Every process still below the plugin but the watchdog: orphans of the pods come
  /// here, the plugin being their subreaper.
  void end_descendants() const {
    pid_t self = ::getpid();
    pid_t watchdog = watchdog_->pid();
    kill_until_gone(
        [&] {
          std::vector<pid_t> found = descendants_of(self);
          found.erase(std::remove(found.begin(), found.end(), watchdog), found.end());
          return found;
        },
        [&](pid_t pid) { return pid != watchdog && is_descendant(pid, self); }, reap_children);
    reap_children();
  }

  Watchdog* watchdog_;
  bool keep_;
  std::FILE* log_;
};

void announce(const LocalPlan& plan, const LocalOptions& options, std::FILE* log) {
  std::string warning_word = paint("warning:", Tone::kWarning, color_enabled(log));
  for (const std::string& warning : plan.warnings)
    std::fprintf(log, "%s %s\n", warning_word.c_str(), warning.c_str());
  size_t pods = 0;
  bool read_only = false;
  for (const auto& stage : plan.stages) {
    pods += stage.size();
    for (const LocalPod& pod : stage) {
      for (const LocalVolume& volume : pod.volumes)
        read_only = read_only || volume.read_only;
    }
  }
  // Read-only is permission bits here, not a read-only mount, and root is not held by them.
  if (read_only && ::geteuid() == 0) {
    std::fprintf(log,
                 "%s running as root: read-only volumes are not enforced, as root ignores "
                 "permission bits\n",
                 warning_word.c_str());
  }
  std::fprintf(log, "Running %zu pod%s on this machine; volumes under %s\n", pods,
               pods == 1 ? "" : "s", options.work_dir.c_str());
  for (const std::string& rewrite : plan.rewrites)
    std::fprintf(log, "  %s\n", rewrite.c_str());
}

TorchrunSettings torchrun_settings(const LocalRunRequest& request) {
  TorchrunSettings settings;
  settings.launcher = request.torchrun_launcher;
  std::string trainer = trainer_dir_beside_self();
  if (!trainer.empty()) settings.trainer = trainer + "/trainjob-trainer";
  settings.marker = request.settings.marker;
  settings.log = request.log;
  settings.cache_file = torchrun_trials_file();
  return settings;
}

/// Why a container would fail at once for a script nothing mounts (image mode, whose image is
/// not pulled), naming it and what to pass; "" when every script is there.
std::string unmounted_script_problem(const LocalPlan& plan) {
  auto exists = [](const std::string& path) {
    std::error_code ec;
    return fs::exists(path, ec);
  };
  for (const auto& stage : plan.stages)
    for (const LocalPod& pod : stage)
      for (const auto* list : {&pod.init_containers, &pod.containers})
        for (const LocalContainer& container : *list) {
          std::string script = unmounted_script(container.argv, exists);
          if (script.empty()) continue;
          return "pod " + pod.name + " (" + pod.label + "), container " + container.name +
                 ": its command runs " + script + ", which no volume mounts and which is not " +
                 "on this machine (the image " + container.image +
                 " is not pulled): " + unmounted_script_hint(script);
        }
  return "";
}

/// Plans, writes the volumes and runs, in the work directory the watchdog made.
bool plan_and_run(LocalRunRequest* request, const ConfigMapIndex& config_maps, std::string* error) {
  LocalPlan plan;
  if (!plan_local_run(request->objects, config_maps, request->options, &plan, error)) return false;
  RootDir work;
  if (!work.open(request->options.work_dir, error)) {
    *error = "cannot open the work directory " + request->options.work_dir + ": " + *error;
    return false;
  }
  if (!materialize_volumes(plan, work, request->options.allow_host_path, error)) return false;
  *error = unmounted_script_problem(plan);  // before any pod starts, not as its exit
  if (!error->empty()) return false;
  announce(plan, request->options, request->log);
  if (!choose_torchrun_launcher(&plan, torchrun_settings(*request), error)) return false;
  request->settings.prefix = plan.stages.size() > 1 || plan.stages.front().size() > 1;
  request->settings.log = request->log;
  request->settings.live_progress = is_terminal(request->settings.out);
  request->settings.color = color_enabled(request->log);
  return run_local_plan(plan, request->settings, error);
}

}  // namespace

bool run_local_job(LocalRunRequest request, std::string* error) {
  std::vector<std::string> mpi_notes;
  if (!adapt_mpi_for_local(&request.objects, request.options.image_dirs, &mpi_notes, error)) {
    return false;
  }
  for (const std::string& note : mpi_notes)
    std::fprintf(request.log, "%s\n", note.c_str());
  // Refused before anything exists: no watchdog, no directory, no allocation per pod.
  *error = pod_cap_problem(local_pod_count(request.objects), request.options.max_pods);
  if (!error->empty()) return false;
  ConfigMapIndex config_maps = config_maps_among(request.objects, request.default_namespace);
  std::string marker = run_marker();
  Watchdog watchdog;
  std::string parent = request.temp_dir.empty() ? "/tmp" : request.temp_dir;
  if (!watchdog.start(parent, marker, error)) return false;
  // Orphaned grandchildren of the pods become the plugin's children, to be reaped and
  // ended with the run instead of living on under init. After the watchdog started, so
  // that it, the one child meant to outlive the plugin, is not affected.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (request.keep_work_dir) watchdog.keep_work_dir();  // kept even if the plugin is killed
  RunResources resources(&watchdog, request.keep_work_dir, request.log);
  request.options.work_dir = watchdog.work_dir();
  request.options.master_port = free_local_port();
  // Each call a port no other address of this run has: the kernel may hand out a port
  // again once the probing socket closed.
  auto given = std::make_shared<std::set<std::string>>();
  given->insert(request.options.master_port);
  request.options.free_port = [given] {
    std::string port = free_local_port();
    for (int tries = 0; tries < 50 && given->count(port) != 0; ++tries)
      port = free_local_port();
    given->insert(port);
    return port;
  };
  request.settings.marker = marker;
  request.settings.groups = &watchdog;
  return plan_and_run(&request, config_maps, error);
}

ConfigMapIndex config_maps_among(const std::vector<Json>& objects, const std::string& default_ns) {
  ConfigMapIndex index;
  for (const Json& object : objects) {
    if (string_member(object, "kind") != "ConfigMap") continue;
    const Json& metadata = object.value("metadata", Json::object());
    std::string name_space = string_member(metadata, "namespace");
    if (name_space.empty()) name_space = default_ns.empty() ? "default" : default_ns;
    index[name_space + "/" + string_member(metadata, "name")] = &object;
  }
  return index;
}

std::string trainer_dir_beside_self() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  for (const fs::path& dir : {self.parent_path() / "trainer", self.parent_path()}) {
    if (fs::is_regular_file(dir / "trainjob-trainer", ec)) return dir.string();
  }
  return {};
}

std::string free_local_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  if (fd >= 0) ::close(fd);
  return ok ? std::to_string(ntohs(address.sin_port)) : "29500";
}

}  // namespace trainjob
