// `run --local` for containers started by torchrun: which launcher runs them. Debian's
// torchrun 1.13 crashes on Python 3.11 before it starts a worker, and a container's
// torchrun need not be installed here at all; trainjob-trainer, built beside the plugin,
// accepts torchrun's static-rendezvous command line and gives Python workers torchrun's
// environment, so it can stand in for it.
#ifndef TRAINJOB_LOCAL_LOCAL_TORCHRUN_H_
#define TRAINJOB_LOCAL_LOCAL_TORCHRUN_H_

#include <cstdio>
#include <string>
#include <vector>

#include "local/plan/local_plan.h"

namespace trainjob {

/// --launcher: auto (the host's torchrun when a trial launch of it succeeds, else the
/// builtin), builtin (trainjob-trainer), host (the command as written).
enum class TorchrunLauncher { kAuto, kBuiltin, kHost };

struct TorchrunSettings {
  TorchrunLauncher launcher = TorchrunLauncher::kAuto;
  std::string trainer;  ///< the trainjob-trainer to run ("" when none is built)
  std::string marker;   ///< the run's marker, given to the trial launch too
  double trial_timeout_s = 30;
  /// Where failed trial launches are remembered (local/launch_cache.h); "": nowhere.
  std::string cache_file;
  std::FILE* log = stderr;  ///< where the choice is said, once
};

/// The number of leading words of `argv` that start torchrun: 1 for `torchrun` (any
/// directory), 3 for `python3 -m torch.distributed.run` (python, python3, python3.11...);
/// 0 when `argv` does not start torchrun.
size_t torchrun_prefix_length(const std::vector<std::string>& argv);

/// The interpreter a Python script's `#!` line names (`/usr/bin/python3.11`; `python3`
/// for `#!/usr/bin/env python3`), "" when `script` is none.
std::string script_interpreter(const std::string& script);

/// Finds `program` as execvp would with PATH `path` ("" when not found).
std::string find_on_path(const std::string& program, const std::string& path);

/// Rewrites every container of `plan` whose command is torchrun to run `settings.trainer`
/// with the same arguments and the Python the host's torchrun would use, when
/// `settings.launcher` asks for it or, with kAuto, when a one-worker trial launch of the
/// host's torchrun fails (or failed before, as `settings.cache_file` remembers). Says once on
/// `settings.log` which launcher runs them and why.
/// False with `*error` when kBuiltin is asked for and no trainjob-trainer is built.
bool choose_torchrun_launcher(LocalPlan* plan, const TorchrunSettings& settings,
                              std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LOCAL_TORCHRUN_H_
