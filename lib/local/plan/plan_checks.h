// What `run --local` refuses before it creates anything: more pods than the user allowed,
// names and paths that would write outside its work directory, modes a ConfigMap may
// not carry, and host paths that would hand a pod the system's own directories. Pure
// functions of the rendered objects, so hostile input is refused by value.
#ifndef TRAINJOB_LOCAL_PLAN_PLAN_CHECKS_H_
#define TRAINJOB_LOCAL_PLAN_PLAN_CHECKS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "load/json.h"

namespace trainjob {

/// The pods a Job runs: `completions`, else `parallelism`, else 1 (never below 0).
int64_t job_pod_count(const Json& job);

/// `a + b` without overflow: pods summed over Jobs of `numNodes: 2147483647` stay exact.
int64_t add_pods(int64_t a, int64_t b);

/// Why `pods` pods cannot run with a cap of `max_pods` ("" when they can), naming both
/// numbers and the --max-pods flag.
std::string pod_cap_problem(int64_t pods, int64_t max_pods);

/// `text` in double quotes, cut to a short prefix (with its length) when it is long, so a
/// hostile 100k-character name does not flood the terminal.
std::string quoted_value(std::string_view text);

/// Why `name` cannot be one directory or file name beneath the work directory (a volume
/// name, a pod name, a ConfigMap key written as a file): "" when it can.
std::string single_name_problem(std::string_view name);

/// Why a configMap volume `source` (its `items` and modes) together with the ConfigMap
/// it mounts (null when optional and absent) cannot be written beneath its directory.
/// The message starts with the field: `items[0].path "../x": ...`. "" when fine.
std::string config_map_volume_problem(const Json& source, const Json* config_map);

/// A file mode as the API server accepts it: an integer from 0 to 0777 ("" when so).
std::string file_mode_problem(const Json& mode);

/// Why the host path `path` is refused unless --allow-host-path is given: `/`, and `/etc`,
/// `/proc`, `/sys`, `/dev` and everything beneath them, compared after lexical
/// normalisation (`//etc/./`, `/etc/../etc`). "" when it is not one of them. Symlinks
/// are the caller's to resolve (local_volumes does, before it creates anything).
std::string host_path_refusal(std::string_view path);

/// Image mode run here: the image is not pulled, so a script its command names by an
/// absolute path (`/workspace/train.py`; a word ending in .py or .sh) that nothing mounts
/// exists only if this machine has it. The first such word of `argv` (after mount paths
/// were rewritten) for which `exists` is false; "" when none.
std::string unmounted_script(const std::vector<std::string>& argv,
                             const std::function<bool(const std::string&)>& exists);

/// What to do about `script`: `--from-file NAME` when it is under /workspace, where
/// --from-file mounts its files; else a volume that holds it.
std::string unmounted_script_hint(const std::string& script);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_PLAN_CHECKS_H_
