// `init`: a starting TrainJob for each of the three ways a script reaches the pods
// (ConfigMap, host path, image), filled in from templates/init/ and commented where a
// person has to decide something.
#ifndef TRAINJOB_INIT_INIT_TRAINJOB_H_
#define TRAINJOB_INIT_INIT_TRAINJOB_H_

#include <cstdint>
#include <optional>
#include <string>

#include "model/dialect.h"

namespace trainjob {

enum class InitMode { kConfigMap, kHostPath, kImage };

std::optional<InitMode> parse_init_mode(const std::string& name);

struct InitOptions {
  std::string name;
  InitMode mode = InitMode::kConfigMap;
  std::string name_space;  ///< empty: none written (the current namespace applies)
  std::string runtime = "torch-distributed";
  int64_t nodes = 2;
  /// The Trainer release the TrainJob is written for: v2.2+ patch the runtime with
  /// runtimePatches, v2.0-v2.1 with podTemplateOverrides (podSpecOverrides is not offered).
  Dialect trainer_version = kDefaultDialect;
  /// numProcPerNode: an integer, or auto (left out from v2.2 on, where it is the default),
  /// cpu or gpu (v2.0-v2.1 only).
  std::string procs = "1";
  std::string cpu = "1";
  std::string memory = "2Gi";
  std::string image;  ///< image mode; empty: a placeholder to replace
  std::string host_path = "/data/kubeflow-training/scripts";
  /// The script: its file name in the pod, and (ConfigMap mode) its text. Without one,
  /// the bundled train.py.
  std::string script_name;
  std::optional<std::string> script_text;
};

/// The YAML of the TrainJob (in ConfigMap mode after the ConfigMap holding the script).
/// Returns false with `*error` naming the option when a value cannot make a valid
/// TrainJob.
bool init_trainjob(const InitOptions& options, std::string* yaml, std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_INIT_INIT_TRAINJOB_H_
