#include "load/file_system.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace trainjob {
namespace {

std::string errno_text() {
  return std::strerror(errno);
}

}  // namespace

FileSystem::Kind RealFileSystem::stat(const std::string& path) const {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return Kind::kMissing;
  return S_ISDIR(info.st_mode) ? Kind::kDirectory : Kind::kFile;
}

bool RealFileSystem::read_file(const std::string& path, std::string* contents,
                               std::string* error) const {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = errno_text();
    return false;
  }
  // Read straight into a buffer of the file's size (one more byte shows the end), growing
  // it only for files that change while read or report no size (pipes).
  struct stat info {};
  size_t size = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) ? info.st_size : 0;
  contents->resize(size + 1);
  size_t filled = 0;
  for (;;) {
    if (filled == contents->size()) contents->resize(2 * filled + 65536);
    ssize_t n = ::read(fd, contents->data() + filled, contents->size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = errno_text();
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    filled += static_cast<size_t>(n);
  }
  contents->resize(filled);
  ::close(fd);
  return true;
}

bool RealFileSystem::list_directory(const std::string& path, std::vector<std::string>* names,
                                    std::string* error) const {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    *error = errno_text();
    return false;
  }
  names->clear();
  while (const dirent* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names->push_back(name);
  }
  ::closedir(dir);
  std::sort(names->begin(), names->end());
  return true;
}

}  // namespace trainjob
