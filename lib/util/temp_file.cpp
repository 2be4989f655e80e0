#include "util/temp_file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace trainjob {
namespace {

std::string temp_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

}  // namespace

std::FILE* open_temp_file(std::string* error) {
  std::string pattern = temp_dir() + "/kubectl-trainjob-XXXXXX";
  std::vector<char> path(pattern.begin(), pattern.end());
  path.push_back('\0');
  int fd = ::mkstemp(path.data());
  std::FILE* file = fd < 0 ? nullptr : ::fdopen(fd, "w+b");
  if (file == nullptr) {
    *error = "cannot create a temporary file in " + temp_dir() + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    if (fd >= 0) ::unlink(path.data());
    return nullptr;
  }
  ::unlink(path.data());
  return file;
}

std::string temp_write_error() {
  return "cannot write a temporary file in " + temp_dir() + ": " + std::strerror(errno);
}

}  // namespace trainjob
