// `kubectl trainjob run --local`: a TrainJob compiled as `render` compiles it, then run on
// this machine, every pod a process, before it goes near a cluster.
#include <cstdio>
#include <memory>

#include "command.h"
#include "input_flags.h"
#include "load/file_system.h"
#include "local/run_local.h"
#include "sweep_command.h"
#include "util/duration.h"
#include "util/terminal.h"

namespace trainjob {
namespace {

struct RunFlags {
  InputFlags inputs;
  bool local = false;
  std::vector<std::string> from_files;
  std::vector<std::string> image_maps;
  bool keep_workdir = false;
  std::string timeout = "0";
  int64_t max_pods = kDefaultMaxLocalPods;
  bool allow_host_path = false;
  std::string launcher = "auto";
  SweepFlags sweep;
};

TorchrunLauncher launcher_named(const std::string& name) {
  if (name == "builtin") return TorchrunLauncher::kBuiltin;
  return name == "host" ? TorchrunLauncher::kHost : TorchrunLauncher::kAuto;
}

/// A run a signal stopped exits as a shell reports a command SIGINT ended (and as a sweep
/// does).
constexpr int kExitInterrupted = 130;

int run_pods(const RunFlags& flags, const RenderResult& result, double timeout) {
  LocalRunRequest request;
  bool interrupted = false;
  request.settings.interrupted = &interrupted;
  std::string error;
  if (!parse_image_maps(flags.image_maps, &request.options.image_dirs, &error))
    return usage_error(error);
  request.default_namespace = flags.inputs.name_space;
  request.options.max_pods = flags.max_pods;
  request.options.allow_host_path = flags.allow_host_path;
  request.settings.timeout_seconds = timeout;
  request.keep_work_dir = flags.keep_workdir;
  request.torchrun_launcher = launcher_named(flags.launcher);
  if (run_rendered_locally(result, flags.from_files, std::move(request), &error)) return kExitOk;
  std::fprintf(stderr, "%s %s\n", paint("error:", Tone::kError, color_enabled(stderr)).c_str(),
               error.c_str());
  return interrupted ? kExitInterrupted : kExitFailure;
}

int run_local(const RunFlags& flags) {
  if (!flags.local) {
    return usage_error("run needs --local (to run on a cluster, use submit)");
  }
  if (flags.max_pods < 1) return usage_error("--max-pods: expected a number of pods, at least 1");
  std::optional<double> timeout = parse_duration(flags.timeout);
  if (!timeout) return usage_error("--timeout: expected a duration such as 90s or 10m");
  std::optional<RenderRequest> request = make_request(flags.inputs);
  if (!request) return kExitUsage;
  request->config_map_from_files = !flags.from_files.empty();
  SweepFlags sweep = flags.sweep;
  pick_seed(flags.inputs, &sweep, &*request);
  RealFileSystem fs;
  Diagnostics diagnostics;
  RenderResult result = render_inputs(*request, fs, read_all_stdin, &diagnostics);
  int code = report_diagnostics(&diagnostics);
  if (code == kExitOk) {
    std::optional<int> swept = drive_optimization(flags.inputs, sweep, result);
    code = swept ? *swept : run_pods(flags, result, *timeout);
  }
  keep_until_exit(std::move(result));
  return code;
}

}  // namespace

/// run --help's footer: what a local run does with each part of a pod.
constexpr const char* kRunFooter =
    "Each pod of each Job runs as a process on this machine (one per container), "
    "initializer Jobs first. The image is not pulled: commands come from PATH, with "
    "--image-map IMAGE=DIR putting DIR first for an image; the C++ trainer's image maps to "
    "the trainjob-trainer built beside this binary. Pod DNS names in env, command and args "
    "become 127.0.0.1 and the rendezvous port (PET_MASTER_PORT, MASTER_PORT, DMLC_TRACKER_PORT, "
    "that of JAX_COORDINATOR_ADDRESS) a free port; configMap volumes are written to a "
    "work directory from the ConfigMaps among the inputs, emptyDir volumes are empty "
    "directories there, hostPath volumes are the host paths, and mount paths in env, "
    "command, args and workingDir are rewritten to those directories (a path built inside "
    "a program is not). configMap volumes are read-only, as the kubelet mounts them, and so "
    "is an emptyDir every mount of which is readOnly; a readOnly hostPath mount is not "
    "enforced, and read-only is permission bits, which root ignores (warnings say so). Files are "
    "only ever written beneath the work directory: "
    "a volume name, ConfigMap key or items path that would leave it, or a mode outside "
    "0-0777, is refused. The first pod that fails stops the others.\n\n"
    "A Training Operator v1 kind (PyTorchJob, TFJob, ...) runs one process per replica pod "
    "with the operator's hostname; its DNS names become 127.0.0.1, MASTER_PORT a free port, and "
    "each "
    "pod:port its env names (TF_CONFIG) a free port of its own. Its pods run until the kind's "
    "success rule (the Master for PyTorch) is decided: met, exit 0; no longer possible, "
    "exit 1 naming the failed pod, the pods still running stopped. Once it is met, "
    "runPolicy.cleanPodPolicy decides, as the operator does: None (the default) lets the "
    "other pods run to their end, Running and All stop them, their output so far shown "
    "first.\n\n"
    "The run ends with one line: succeeded or failed, each pod with its exit code (or "
    "`stopped by` what stopped it) and the time taken. On a terminal, TRAINJOB_PROGRESS "
    "lines (docs/progress.md) become one live line (epoch, step, loss, ETA); piped, they "
    "are printed as they are.\n\n"
    "When a container's main process ends, everything it started ends with it: its "
    "process group, and (the plugin being the child subreaper) processes that left the "
    "group, found by a TRAINJOB_LOCAL_PROCESS marker in their environment. The work "
    "directory is removed on success, failure, Ctrl-C, SIGTERM and --timeout. If the "
    "plugin itself is killed (SIGKILL), a watchdog process ends the pods and removes the "
    "work directory. Not reached: a process that left its process group and cleared its "
    "environment, or runs as another user; only a container runtime can contain those.";

CommandRunner declare_run(CLI::App* app) {
  auto flags = std::make_shared<RunFlags>();
  app->footer(kRunFooter);
  add_input_flags(app, &flags->inputs);
  add_run_sweep_flags(app, &flags->inputs, &flags->sweep);
  app->add_flag("--local", flags->local, "Run on this machine (required)");
  app->add_option("--image-map", flags->image_maps,
                  "IMAGE=DIR: run containers of IMAGE (with or without its tag) with DIR "
                  "first on PATH")
      ->type_name("IMAGE=DIR");
  add_from_file_flag(app, &flags->from_files);
  app->add_flag("--keep-workdir", flags->keep_workdir,
                "Keep the directory holding the pods' volumes, and print where it is");
  app->add_option("--max-pods", flags->max_pods,
                  "Refuse to run more pods than this, before anything is created. Every pod "
                  "is at least one process started at once on this machine, so the cap stops "
                  "a mistyped numNodes from forking thousands; 64 covers any multi-node test "
                  "that fits on one machine")
      ->capture_default_str();
  app->add_flag("--allow-host-path", flags->allow_host_path,
                "Allow hostPath volumes of /, /etc, /proc, /sys, /dev and paths beneath "
                "/etc, /proc, /sys and /dev, which are refused by default");
  app->add_option("--launcher", flags->launcher,
                  "Who runs containers whose command is torchrun (or python3 -m "
                  "torch.distributed.run): builtin (the trainjob-trainer built beside this "
                  "binary, with the Python the host's torchrun uses), host (the command as "
                  "written), auto (the host's when a one-worker trial launch of it succeeds)")
      // Checked as names (not mapped to the enum by CLI11), so --help lists the names only.
      ->check(CLI::IsMember({"auto", "builtin", "host"}))
      ->capture_default_str();
  app->add_option("--timeout", flags->timeout,
                  "Stop every pod and fail after this long (e.g. 90s, 10m; 0: no limit)")
      ->capture_default_str();
  return [flags] { return run_local(*flags); };
}

}  // namespace trainjob
