// What `init` does around init_trainjob: the --script it names, and the check of what it
// wrote against validate's rules.
#ifndef TRAINJOB_INIT_INIT_SCRIPT_H_
#define TRAINJOB_INIT_INIT_SCRIPT_H_

#include <string>

#include "diag/diagnostic.h"
#include "init/init_trainjob.h"

namespace trainjob {

/// `--script PATH` for `options->mode`: its base name, and in configmap mode its text (only
/// a ConfigMap carries the script; in the other modes it is already where the pods look).
/// False with `*error` ("--script PATH: ...") for a file that cannot be read or is binary.
bool add_init_script(const std::string& path, InitOptions* options, std::string* error);

/// Whether `runtime` is one of the runtimes embedded in the binary, so that a TrainJob
/// using it can be checked without a cluster.
bool is_embedded_runtime(const std::string& runtime);

/// Runs every check of `validate` on the TrainJob `yaml` (what init prints must be valid);
/// the diagnostics, sorted, hold errors when it is not.
Diagnostics check_generated_trainjob(const std::string& yaml);

}  // namespace trainjob

#endif  // TRAINJOB_INIT_INIT_SCRIPT_H_
