// `run --local --launcher auto` remembers a host torchrun that failed its trial launch, so
// that later runs neither pay the launch again (about a second) nor repeat its error. One
// line per torchrun in ${TRAINJOB_CACHE:-${XDG_CACHE_HOME:-~/.cache}/kubectl-trainjob}/
// torchrun-trials, keyed by its path and identity (modification time and size): a torchrun
// that changed (an upgrade, a reinstall) is tried again. Only failures are kept: a torchrun
// that passed may fail later for reasons its file does not show (its Python's packages).
#ifndef TRAINJOB_LOCAL_LAUNCH_CACHE_H_
#define TRAINJOB_LOCAL_LAUNCH_CACHE_H_

#include <optional>
#include <string>

namespace trainjob {

/// The cache directory from the values of TRAINJOB_CACHE, XDG_CACHE_HOME and HOME (each ""
/// when unset), as dist/debian_root.sh finds it; "" when none is set.
std::string cache_dir_from(const std::string& trainjob_cache, const std::string& xdg_cache_home,
                           const std::string& home);

/// The file this process uses: cache_dir_from this environment + "/torchrun-trials".
std::string torchrun_trials_file();

/// `PATH<TAB>MTIME-NS<TAB>SIZE` of the file `path`; "" when it cannot be read.
std::string file_identity(const std::string& path);

/// Why the torchrun of `identity` failed its trial launch, as `file` remembers; null when it
/// does not (no file, no line, or the torchrun changed since).
std::optional<std::string> remembered_failure(const std::string& file, const std::string& identity);

/// Records that the torchrun of `identity` failed with `problem`, replacing what was kept for
/// the same path (written to a temporary name and renamed). False when it cannot be written:
/// the cache only saves time.
bool remember_failure(const std::string& file, const std::string& identity,
                      const std::string& problem);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_LAUNCH_CACHE_H_
