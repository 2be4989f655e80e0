// A fresh directory of a test's own, removed with everything in it (read-only entries
// too) when the test ends; and small readers of what a test wrote there.
#ifndef TRAINJOB_TESTS_SUPPORT_TEMP_DIR_H_
#define TRAINJOB_TESTS_SUPPORT_TEMP_DIR_H_

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>

#include "util/beneath.h"

namespace trainjob::testing {

struct TempDir {
  TempDir() {
    char pattern[] = "/tmp/trainjob-test-XXXXXX";
    path = ::mkdtemp(pattern);
  }
  ~TempDir() { remove_tree(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The permission bits of `path` (not following a symlink); 01000000 when it is missing.
inline mode_t mode_of(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return 01000000;
  return info.st_mode & 07777;
}

}  // namespace trainjob::testing

#endif  // TRAINJOB_TESTS_SUPPORT_TEMP_DIR_H_
