// `run --local` from rendered objects to exit status: plan, check, create the work
// directory, write the volumes, run the pods, and clean up on every path the plugin
// controls, with a watchdog for the paths it does not (see local/watchdog.h).
#ifndef TRAINJOB_LOCAL_RUN_LOCAL_H_
#define TRAINJOB_LOCAL_RUN_LOCAL_H_

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "load/json.h"
#include "local/local_torchrun.h"
#include "local/plan/local_plan.h"
#include "local/plan_runner.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

struct LocalRunRequest {
  std::vector<Json> objects;      ///< rendered, with the ConfigMaps the pods mount
  std::string default_namespace;  ///< of objects that name none ("" = "default")
  /// image_dirs, max_pods, allow_host_path; work_dir and master_port are chosen here.
  LocalOptions options;
  RunSettings settings;  ///< timeout, output; marker and groups are set here
  /// Who runs containers whose command is torchrun (--launcher).
  TorchrunLauncher torchrun_launcher = TorchrunLauncher::kAuto;
  bool keep_work_dir = false;
  std::string temp_dir;     ///< where the work directory is made (TMPDIR, else /tmp)
  std::FILE* log = stderr;  ///< announcements and warnings
};

/// Runs the pods of `request.objects` on this machine. Returns false with `*error` when
/// the inputs cannot run locally (nothing is created then, or it is removed again), or
/// when a pod failed, the run timed out or was interrupted. Every process the pods
/// started is ended and the work directory removed before it returns, unless
/// `keep_work_dir`.
bool run_local_job(LocalRunRequest request, std::string* error);

/// `run --local` for what render made of the inputs: every rendered object, with the
/// ConfigMap of `from_files` (render/config_map_files.h), run by run_local_job in a work
/// directory under the system's temporary directory; `request.objects` and
/// `request.temp_dir` are filled here.
bool run_rendered_locally(const RenderResult& rendered, const std::vector<std::string>& from_files,
                          LocalRunRequest request, std::string* error);

/// `--image-map IMAGE=DIR...` into `image_dirs` (DIR made absolute), after the
/// trainjob-trainer built beside this binary for kTrainerImage. False with `*error` for a
/// value that is not IMAGE=DIR.
bool parse_image_maps(const std::vector<std::string>& maps,
                      std::map<std::string, std::string>* image_dirs, std::string* error);

/// ConfigMaps among `objects` by "namespace/name".
ConfigMapIndex config_maps_among(const std::vector<Json>& objects, const std::string& default_ns);

/// The directory holding a `trainjob-trainer` built with this binary ("" if none).
std::string trainer_dir_beside_self();

/// A port on loopback that nothing listens on now (29500 if none can be found).
std::string free_local_port();

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_RUN_LOCAL_H_
