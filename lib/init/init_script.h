// What `init` does around init_trainjob: the --script it names, and the check of what it
// wrote against validate's rules.
#ifndef TRAINJOB_INIT_INIT_SCRIPT_H_
#define TRAINJOB_INIT_INIT_SCRIPT_H_

#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "init/init_trainjob.h"

namespace trainjob {

/// `--script PATH` for `options->mode`: its base name, and in configmap mode its text (only
/// a ConfigMap carries the script; in the other modes it is already where the pods look).
/// False with `*error` ("--script PATH: ...") for a file that cannot be read or is binary.
/// A Python script loses its lines' trailing blanks (see python_without_trailing_blanks),
/// and `*note` then says so; it is empty otherwise.
bool add_init_script(const std::string& path, InitOptions* options, std::string* error,
                     std::string* note);

/// `script` without the spaces and tabs that end its lines, but inside a triple-quoted
/// string, where they are content: Python ignores them everywhere else, while YAML (as
/// kubectl writes it) can show a text with them only as one quoted, `\n`-escaped line.
/// `*lines` counts the lines changed; `*kept` numbers (from 1) those left as they are.
std::string python_without_trailing_blanks(const std::string& script, size_t* lines,
                                           std::vector<size_t>* kept);

/// Whether `runtime` is one of the runtimes embedded in the binary, so that a TrainJob
/// using it can be checked without a cluster.
bool is_embedded_runtime(const std::string& runtime);

/// Runs every check of `validate` on the TrainJob `yaml` (what init prints must be valid);
/// the diagnostics, sorted, hold errors when it is not.
Diagnostics check_generated_trainjob(const std::string& yaml);

}  // namespace trainjob

#endif  // TRAINJOB_INIT_INIT_SCRIPT_H_
