// Files written beneath a root directory and never outside it: the one way the plugin
// writes files whose names come from its input (render --output-dir, run --local's
// volumes). Names are refused before anything is opened; every directory on the way is
// opened without following symlinks, and files are created with O_EXCL|O_NOFOLLOW, so
// neither a hostile name nor a planted symlink can lead a write elsewhere.
#ifndef TRAINJOB_UTIL_BENEATH_H_
#define TRAINJOB_UTIL_BENEATH_H_

#include <string>
#include <string_view>
#include <sys/types.h>

namespace trainjob {

/// Why `path` would leave its root ("" when it stays beneath it): it must be relative,
/// non-empty, with no empty, "." or ".." element and no NUL byte.
std::string beneath_path_problem(std::string_view path);

/// A directory opened once; relative paths are resolved beneath it, element by element.
class RootDir {
 public:
  RootDir() = default;
  ~RootDir();
  RootDir(RootDir&& other) noexcept;
  RootDir& operator=(RootDir&& other) noexcept;
  RootDir(const RootDir&) = delete;
  RootDir& operator=(const RootDir&) = delete;

  /// Opens the directory `path` (which the user chose, so symlinks in it are followed).
  bool open(const std::string& path, std::string* error);
  bool is_open() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

  /// Creates the directory `relative` and its missing parents beneath the root with
  /// `mode`; an existing element must be a real directory, not a symlink.
  bool make_dirs(std::string_view relative, mode_t mode, std::string* error) const;
  /// Writes `relative` so that readers see the old file or the new one, never part:
  /// a fresh temp file in the same directory, fsync, rename. The target must be missing
  /// or a regular file. `mode` is masked to 0777: input never creates setuid files.
  bool write_file(std::string_view relative, std::string_view contents, mode_t mode,
                  std::string* error) const;
  /// Takes write permission away from `relative` (a file or directory beneath the root).
  bool make_read_only(std::string_view relative, std::string* error) const;

 private:
  /// An fd of the directory holding `relative`'s last element, created when
  /// `create` is set; -1 with *error set otherwise. `*leaf` is that last element.
  int open_parent(std::string_view relative, bool create, mode_t mode, std::string* leaf,
                  std::string* error) const;

  int fd_ = -1;
  std::string path_;
};

/// Writes `contents` to a temp file made with O_CREAT|O_EXCL|O_NOFOLLOW in the directory
/// `dir_fd`, fsyncs it and returns its name ("" with *error set on failure).
std::string write_temp_file(int dir_fd, std::string_view name_prefix, std::string_view contents,
                            mode_t mode, std::string* error);

/// Removes a directory tree without following symlinks (for work and staging dirs the
/// plugin made itself). Best effort; false when something could not be removed.
bool remove_tree(const std::string& path);

}  // namespace trainjob

#endif  // TRAINJOB_UTIL_BENEATH_H_
