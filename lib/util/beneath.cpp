#include "util/beneath.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <ftw.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace trainjob {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

/// Closes an fd however a function returns.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

bool write_all(int fd, std::string_view contents) {
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// Opens the directory `name` in `dir_fd`, never through a symlink, creating it first
/// when asked. -1 with *error set when it cannot.
int open_child_dir(int dir_fd, const std::string& name, bool create, mode_t mode,
                   std::string* error) {
  if (create && ::mkdirat(dir_fd, name.c_str(), mode) != 0 && errno != EEXIST) {
    *error = "cannot create directory " + name + ": " + errno_text();
    return -1;
  }
  int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    *error = errno == ELOOP || errno == ENOTDIR ? name + " is not a directory"
                                                : "cannot open " + name + ": " + errno_text();
  }
  return fd;
}

std::string random_suffix() {
  static thread_local std::mt19937_64 engine{std::random_device{}()};
  static const char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string out(8, 'x');
  for (char& c : out)
    c = kAlphabet[engine() % (sizeof kAlphabet - 1)];
  return out;
}

int make_owner_writable(const char* path, const struct stat* info, int type, FTW*) {
  if (type == FTW_D) ::chmod(path, (info->st_mode & 07777) | S_IRWXU);
  return 0;
}

}  // namespace

std::string beneath_path_problem(std::string_view path) {
  if (path.empty()) return "an empty path";
  if (path.find('\0') != std::string_view::npos) return "a NUL byte in the path";
  if (path.front() == '/') return "an absolute path; it must be relative";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = std::min(path.find('/', start), path.size());
    std::string_view element = path.substr(start, end - start);
    if (element.empty()) return "an empty path element (\"//\" or a trailing \"/\")";
    if (element == "." || element == "..") {
      return "a \"" + std::string(element) + "\" path element; it must stay beneath its directory";
    }
    start = end + 1;
  }
  return "";
}

RootDir::~RootDir() {
  if (fd_ >= 0) ::close(fd_);
}

RootDir::RootDir(RootDir&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

RootDir& RootDir::operator=(RootDir&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

bool RootDir::open(const std::string& path, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *error = errno == ENOTDIR ? "not a directory" : errno_text();
    return false;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  path_ = path;
  return true;
}

int RootDir::open_parent(std::string_view relative, bool create, mode_t mode, std::string* leaf,
                         std::string* error) const {
  std::string problem = beneath_path_problem(relative);
  if (!problem.empty()) {
    *error = "refused path \"" + std::string(relative) + "\": " + problem;
    return -1;
  }
  int dir = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (dir < 0) {
    *error = errno_text();
    return -1;
  }
  size_t start = 0;
  for (size_t slash; (slash = relative.find('/', start)) != std::string_view::npos;
       start = slash + 1) {
    FdCloser parent(dir);
    dir = open_child_dir(dir, std::string(relative.substr(start, slash - start)), create, mode,
                         error);
    if (dir < 0) return -1;
  }
  *leaf = std::string(relative.substr(start));
  return dir;
}

bool RootDir::make_dirs(std::string_view relative, mode_t mode, std::string* error) const {
  std::string leaf;
  int parent = open_parent(relative, true, mode, &leaf, error);
  if (parent < 0) return false;
  FdCloser closer(parent);
  int dir = open_child_dir(parent, leaf, true, mode, error);
  if (dir < 0) return false;
  ::close(dir);
  return true;
}

bool RootDir::write_file(std::string_view relative, std::string_view contents, mode_t mode,
                         std::string* error) const {
  std::string leaf;
  int parent = open_parent(relative, true, 0755, &leaf, error);
  if (parent < 0) return false;
  FdCloser closer(parent);
  struct stat info {};
  if (::fstatat(parent, leaf.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(info.st_mode)) {
    *error = std::string(relative) + " exists and is not a regular file";
    return false;
  }
  std::string temp = write_temp_file(parent, "." + leaf, contents, mode, error);
  if (temp.empty()) return false;
  if (::renameat(parent, temp.c_str(), parent, leaf.c_str()) != 0) {
    *error = "cannot write " + std::string(relative) + ": " + errno_text();
    ::unlinkat(parent, temp.c_str(), 0);
    return false;
  }
  return true;
}

bool RootDir::make_read_only(std::string_view relative, std::string* error) const {
  std::string leaf;
  int parent = open_parent(relative, false, 0, &leaf, error);
  if (parent < 0) return false;
  FdCloser closer(parent);
  struct stat info {};
  if (::fstatat(parent, leaf.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0 || S_ISLNK(info.st_mode) ||
      ::fchmodat(parent, leaf.c_str(), info.st_mode & 07555 & ~mode_t{S_ISUID | S_ISGID}, 0) != 0) {
    *error = "cannot make " + std::string(relative) + " read-only: " + errno_text();
    return false;
  }
  return true;
}

std::string write_temp_file(int dir_fd, std::string_view name_prefix, std::string_view contents,
                            mode_t mode, std::string* error) {
  std::string name;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    name = std::string(name_prefix) + ".tmp-" + random_suffix();
    fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    *error = "cannot create a temp file: " + errno_text();
    return "";
  }
  bool ok = write_all(fd, contents) && ::fchmod(fd, mode & 0777) == 0 && ::fsync(fd) == 0;
  if (!ok) *error = "cannot write a temp file: " + errno_text();
  if (::close(fd) != 0 && ok) {
    *error = "cannot write a temp file: " + errno_text();
    ok = false;
  }
  if (!ok) {
    ::unlinkat(dir_fd, name.c_str(), 0);
    return "";
  }
  return name;
}

bool remove_tree(const std::string& path) {
  // Read-only directories (readOnly mounts) must become writable before their entries
  // can go; FTW_PHYS walks symlinks as links, never into what they point at.
  ::nftw(path.c_str(), make_owner_writable, 16, FTW_PHYS);
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
  return !ec;
}

}  // namespace trainjob
