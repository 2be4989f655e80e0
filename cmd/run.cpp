// `kubectl trainjob run --local`: a TrainJob compiled as `render` compiles it, then run on
// this machine, every pod a process, before it goes near a cluster.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "command.h"
#include "input_flags.h"
#include "kube/config_map_files.h"
#include "kube/rest_config.h"
#include "load/file_system.h"
#include "local/local_plan.h"
#include "local/local_runner.h"
#include "local/local_volumes.h"
#include "output/render_output.h"

namespace trainjob {
namespace {

namespace fs = std::filesystem;

/// The image of the embedded cpp-trainer runtime, run from the trainer built beside us.
constexpr const char* kTrainerImage = "ghcr.io/kubectl-trainjob/trainjob-trainer";

struct RunFlags {
  InputFlags inputs;
  bool local = false;
  std::vector<std::string> from_files;
  std::vector<std::string> image_maps;
  bool keep_workdir = false;
  std::string timeout = "0";
};

/// The directory holding a `trainjob-trainer` built with this binary, if there is one.
std::string local_trainer_dir() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  for (const fs::path& dir : {self.parent_path() / "trainer", self.parent_path()}) {
    if (fs::is_regular_file(dir / "trainjob-trainer", ec)) return dir.string();
  }
  return {};
}

bool parse_image_maps(const std::vector<std::string>& maps, LocalOptions* options) {
  std::string trainer = local_trainer_dir();
  if (!trainer.empty()) options->image_dirs[kTrainerImage] = trainer;
  for (const std::string& map : maps) {
    size_t equals = map.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == map.size()) {
      usage_error("--image-map: expected IMAGE=DIR, found \"" + map + "\"");
      return false;
    }
    std::error_code ec;
    fs::path dir = fs::absolute(map.substr(equals + 1), ec);
    options->image_dirs[map.substr(0, equals)] = dir.string();
  }
  return true;
}

/// A port on loopback that nothing listens on now.
std::string free_local_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  if (fd >= 0) ::close(fd);
  return ok ? std::to_string(ntohs(address.sin_port)) : "29500";
}

std::string namespace_or_default(const std::string& name_space, const std::string& fallback) {
  if (!name_space.empty()) return name_space;
  return fallback.empty() ? "default" : fallback;
}

ConfigMapIndex config_maps_among(const std::vector<Json>& objects, const std::string& default_ns) {
  ConfigMapIndex index;
  for (const Json& object : objects) {
    if (object.value("kind", "") != "ConfigMap") continue;
    Json metadata = object.value("metadata", Json::object());
    if (!metadata.is_object()) continue;
    std::string name_space = namespace_or_default(metadata.value("namespace", ""), default_ns);
    index[name_space + "/" + metadata.value("name", "")] = &object;
  }
  return index;
}

/// `--from-file`: the files as the ConfigMap the TrainJob mounts, as `submit` builds it.
bool add_files_config_map(const RunFlags& flags, const RenderResult& result,
                          std::vector<Json>* objects) {
  const Document* trainjob = nullptr;
  std::vector<std::string> inputs;
  for (const RenderedUnit& unit : result.units) {
    if (unit.compiled) {
      if (trainjob != nullptr) {
        std::fprintf(stderr, "error: --from-file takes exactly one TrainJob among the inputs\n");
        return false;
      }
      trainjob = unit.source;
    } else if (unit.objects[0].value("kind", "") == "ConfigMap") {
      inputs.push_back(unit.objects[0].value("metadata", Json::object()).value("name", ""));
    }
  }
  if (trainjob == nullptr) return true;  // plan_local_run says there is nothing to run
  std::string error;
  std::optional<Json> config_map =
      config_map_for_files(flags.from_files, trainjob->name(),
                           namespace_or_default(trainjob->name_space(), flags.inputs.name_space),
                           inputs, objects, &error);
  if (!config_map) {
    std::fprintf(stderr, "error: --from-file%s\n", error.c_str());
    return false;
  }
  objects->push_back(std::move(*config_map));
  return true;
}

void announce(const LocalPlan& plan, const LocalOptions& options) {
  size_t pods = 0;
  for (const auto& stage : plan.stages)
    pods += stage.size();
  std::fprintf(stderr, "Running %zu pod%s on this machine; volumes under %s\n", pods,
               pods == 1 ? "" : "s", options.work_dir.c_str());
  for (const std::string& rewrite : plan.rewrites)
    std::fprintf(stderr, "  %s\n", rewrite.c_str());
}

/// Plans, prepares the volumes and runs; the work directory goes afterwards unless kept.
bool run_in(const std::vector<Json>& objects, const RunFlags& flags, const LocalOptions& options,
            double timeout) {
  LocalPlan plan;
  std::string problem;
  bool ok = plan_local_run(objects, config_maps_among(objects, flags.inputs.name_space), options,
                           &plan, &problem) &&
            materialize_volumes(plan, &problem);
  if (ok) {
    announce(plan, options);
    RunSettings settings;
    settings.timeout_seconds = timeout;
    settings.prefix = plan.stages.size() > 1 || plan.stages.front().size() > 1;
    ok = run_local_plan(plan, settings, &problem);
  }
  if (!ok) std::fprintf(stderr, "error: %s\n", problem.c_str());
  if (flags.keep_workdir) {
    std::fprintf(stderr, "Kept the work directory %s\n", options.work_dir.c_str());
  } else {
    std::error_code ec;
    fs::remove_all(options.work_dir, ec);
  }
  return ok;
}

int run_pods(const RunFlags& flags, const RenderResult& result, double timeout) {
  LocalOptions options;
  if (!parse_image_maps(flags.image_maps, &options)) return kExitUsage;
  std::vector<Json> objects;
  for (const Json* object : all_objects(result.units))
    objects.push_back(*object);
  if (!flags.from_files.empty() && !add_files_config_map(flags, result, &objects)) {
    return kExitFailure;
  }
  std::string work_template = (fs::temp_directory_path() / "trainjob-local-XXXXXX").string();
  if (::mkdtemp(work_template.data()) == nullptr) {
    std::fprintf(stderr, "error: cannot create a work directory in %s\n",
                 fs::temp_directory_path().c_str());
    return kExitFailure;
  }
  options.work_dir = work_template;
  options.master_port = free_local_port();
  return run_in(objects, flags, options, timeout) ? kExitOk : kExitFailure;
}

int run_local(const RunFlags& flags) {
  if (!flags.local) {
    return usage_error("run needs --local (to run on a cluster, use submit)");
  }
  std::optional<double> timeout = parse_duration(flags.timeout);
  if (!timeout) return usage_error("--timeout: expected a duration such as 90s or 10m");
  std::optional<RenderRequest> request = make_request(flags.inputs);
  if (!request) return kExitUsage;
  RealFileSystem fs;
  Diagnostics diagnostics;
  RenderResult result = render_inputs(*request, fs, read_all_stdin, &diagnostics);
  int code = report_diagnostics(&diagnostics);
  if (code == kExitOk) code = run_pods(flags, result, *timeout);
  keep_until_exit(std::move(result));
  return code;
}

}  // namespace

CommandRunner declare_run(CLI::App* app) {
  auto flags = std::make_shared<RunFlags>();
  app->footer(
      "Each pod of each Job runs as a process on this machine (one per container), "
      "initializer Jobs first. The image is not pulled: commands come from PATH, with "
      "--image-map IMAGE=DIR putting DIR first for an image; the C++ trainer's image maps to "
      "the trainjob-trainer built beside this binary. Pod DNS names in env, command and args "
      "become 127.0.0.1 and PET_MASTER_PORT a free port; configMap volumes are written to a "
      "work directory from the ConfigMaps among the inputs, emptyDir volumes are empty "
      "directories there, hostPath volumes are the host paths, and mount paths in env, "
      "command, args and workingDir are rewritten to those directories (a path built inside "
      "a program is not). The first pod that fails stops the others.");
  add_input_flags(app, &flags->inputs);
  app->add_flag("--local", flags->local, "Run on this machine (required)");
  app->add_option("--image-map", flags->image_maps,
                  "IMAGE=DIR: run containers of IMAGE (with or without its tag) with DIR "
                  "first on PATH")
      ->type_name("IMAGE=DIR");
  app->add_option("--from-file", flags->from_files,
                  "Put FILE into the ConfigMap the TrainJob mounts (or a new one mounted at "
                  "/workspace), as submit --from-file does")
      ->type_name("FILE");
  app->add_flag("--keep-workdir", flags->keep_workdir,
                "Keep the directory holding the pods' volumes, and print where it is");
  app->add_option("--timeout", flags->timeout,
                  "Stop every pod and fail after this long (e.g. 90s, 10m; 0: no limit)")
      ->capture_default_str();
  return [flags] { return run_local(*flags); };
}

}  // namespace trainjob
