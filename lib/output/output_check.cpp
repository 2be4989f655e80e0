#include "output/output_check.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "output/output_manifest.h"
#include "output/unified_diff.h"
#include "util/beneath.h"

namespace trainjob {
namespace {

/// The names in the open directory `dir_fd` that are not directories, sorted.
std::vector<std::string> list_entries(int dir_fd) {
  std::vector<std::string> names;
  int fd = ::dup(dir_fd);
  DIR* stream = fd < 0 ? nullptr : ::fdopendir(fd);
  if (stream == nullptr) {
    if (fd >= 0) ::close(fd);
    return names;
  }
  while (const dirent* entry = ::readdir(stream)) {
    struct stat info {};
    if (::fstatat(dir_fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(info.st_mode))
      names.emplace_back(entry->d_name);
  }
  ::closedir(stream);
  std::sort(names.begin(), names.end());
  return names;
}

/// Compares the files render writes with what is there.
void compare_files(const RootDir& root, const OutputFiles& files, std::string* diffs,
                   Diagnostics* diagnostics) {
  for (const auto& [name, rendered] : files) {
    std::string path = root.path() + "/" + name;
    std::string current;
    switch (read_entry(root.fd(), name, &current)) {
      case EntryKind::kMissing:
        diagnostics->error(path, {}, "", "missing: render writes this file");
        break;
      case EntryKind::kOther:
        diagnostics->error(path, {}, "", "not a readable regular file: render writes a file here");
        break;
      case EntryKind::kFile:
        if (current == rendered) break;
        *diffs += unified_diff(current, rendered, "a/" + name, "b/" + name);
        diagnostics->error(path, {}, "",
                           "differs from what render writes (unified diff on standard output)");
        break;
    }
  }
}

/// Why a stale file is stale, and who removes it.
const char* stale_reason(const std::string& name, const std::set<std::string>& prunable,
                         const std::set<std::string>& edited) {
  if (prunable.count(name) > 0)
    return "stale: render no longer writes this file (--prune removes it)";
  if (edited.count(name) > 0)
    return "stale: render no longer writes this file, and it was changed since render wrote it "
           "(--prune keeps it; remove it by hand)";
  return "stale: render does not write this file, and did not write it earlier (remove it by "
         "hand)";
}

/// Every other `*.yaml`/`*.json` in DIR is stale; the manifest tells ours from others.
void report_stale(const RootDir& root, const OutputFiles& files, Diagnostics* diagnostics) {
  ManifestReview review = review_manifest(root.fd(), root.path(), files, diagnostics);
  std::set<std::string> prunable(review.stale.begin(), review.stale.end());
  std::set<std::string> edited(review.edited.begin(), review.edited.end());
  for (const std::string& name : list_entries(root.fd())) {
    if (!is_output_name(name) || files.count(name) > 0) continue;
    diagnostics->error(root.path() + "/" + name, {}, "", stale_reason(name, prunable, edited));
  }
}

}  // namespace

bool check_output_files(const std::string& dir, const OutputFiles& files, std::string* diffs,
                        Diagnostics* diagnostics) {
  int errors = diagnostics->error_count();
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0 && errno == ENOENT) {
    for (const auto& [name, contents] : files) {
      std::string path = dir;
      path += '/';
      path += name;
      diagnostics->error(path, {}, "", "missing: render writes this file");
    }
    return diagnostics->error_count() == errors;
  }
  RootDir root;
  std::string error;
  if (!root.open(dir, &error)) {
    diagnostics->error(dir, {}, "", "--check: " + error);
    return false;
  }
  compare_files(root, files, diffs, diagnostics);
  report_stale(root, files, diagnostics);
  return diagnostics->error_count() == errors;
}

}  // namespace trainjob
