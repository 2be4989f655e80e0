#include "output/output_dir.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "output/output_manifest.h"
#include "util/beneath.h"

namespace trainjob {
namespace {

/// Creates `dir`'s missing ancestors and itself, recording each one created, outermost
/// first, so that a failed write can take them away again.
bool make_missing_dirs(const std::string& dir, std::vector<std::string>* created,
                       std::string* error) {
  std::filesystem::path prefix;
  for (const auto& element : std::filesystem::path(dir)) {
    prefix /= element;
    if (element.empty() || element == "/" || element == "." || element == "..") continue;
    if (::mkdir(prefix.c_str(), 0755) == 0) {
      created->push_back(prefix.string());
    } else if (errno != EEXIST) {
      *error = "cannot create " + prefix.string() + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

void remove_created_dirs(const std::vector<std::string>& created) {
  for (auto it = created.rbegin(); it != created.rend(); ++it)
    ::rmdir(it->c_str());
}

/// A name must be one path element, and what is there already a regular file.
bool check_targets(const RootDir& root, const OutputFiles& files, Diagnostics* diagnostics) {
  for (const auto& [name, contents] : files) {
    std::string path = root.path() + "/" + name;
    std::string problem = beneath_path_problem(name);
    if (problem.empty() && name.find('/') != std::string::npos) problem = "a '/' in a file name";
    if (!problem.empty()) {
      diagnostics->error(path, {}, "", "refused file name: " + problem);
      continue;
    }
    struct stat info {};
    if (::fstatat(root.fd(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
        !S_ISREG(info.st_mode)) {
      diagnostics->error(path, {}, "",
                         "exists and is not a regular file; --output-dir replaces only files");
    }
  }
  return !diagnostics->has_errors();
}

/// The staging directory inside DIR, removed however the write ends.
class Staging {
 public:
  bool open(const RootDir& root, std::string* error) {
    for (int attempt = 0; attempt < 100 && path_.empty(); ++attempt) {
      std::string name =
          ".trainjob-render-" + std::to_string(::getpid()) + "-" + std::to_string(attempt);
      if (::mkdirat(root.fd(), name.c_str(), 0700) == 0) {
        path_ = root.path() + "/" + name;
      } else if (errno != EEXIST) {
        break;
      }
    }
    if (path_.empty()) {
      *error = std::string("cannot create a staging directory: ") + std::strerror(errno);
      return false;
    }
    return dir_.open(path_, error);
  }
  ~Staging() {
    if (!path_.empty()) remove_tree(path_);
  }
  const RootDir& dir() const { return dir_; }

 private:
  std::string path_;
  RootDir dir_;
};

/// Undoes what move_into_place did so far: pruned files back, new files out, old back.
void roll_back(int root, int stage, const std::vector<std::pair<std::string, bool>>& moved,
               const std::vector<std::string>& pruned) {
  for (const std::string& name : pruned)
    ::renameat(stage, (name + ".pruned").c_str(), root, name.c_str());
  for (const auto& [name, had_old] : moved) {
    if (had_old) {
      ::renameat(stage, (name + ".old").c_str(), root, name.c_str());
    } else {
      ::unlinkat(root, name.c_str(), 0);
    }
  }
}

/// Moves the staged files into DIR and the files to prune out of it. Files already there
/// are first linked into the staging directory as `NAME.old`, and pruned ones moved there
/// as `NAME.pruned`, so that a failed step can put every one back.
bool move_into_place(const RootDir& root, const Staging& staging, const OutputFiles& files,
                     const std::vector<std::string>& removals, std::string* error) {
  int stage = staging.dir().fd();
  std::vector<std::pair<std::string, bool>> moved;  // name, had an old file
  std::vector<std::string> pruned;
  bool ok = true;
  for (const auto& [name, contents] : files) {
    bool had_old = ::linkat(root.fd(), name.c_str(), stage, (name + ".old").c_str(), 0) == 0;
    if (!had_old && errno != ENOENT) ok = false;
    if (ok && ::renameat(stage, name.c_str(), root.fd(), name.c_str()) != 0) ok = false;
    if (!ok) {
      *error = "cannot move " + name + " into place: " + std::strerror(errno);
      break;
    }
    moved.emplace_back(name, had_old);
  }
  for (auto it = removals.begin(); ok && it != removals.end(); ++it) {
    if (::renameat(root.fd(), it->c_str(), stage, (*it + ".pruned").c_str()) != 0) {
      *error = "cannot remove " + *it + ": " + std::strerror(errno);
      ok = false;
      break;
    }
    pruned.push_back(*it);
  }
  if (ok) {
    ::fsync(root.fd());  // the renames to disk; they are in place either way
    return true;
  }
  roll_back(root.fd(), stage, moved, pruned);
  return false;
}

/// Adds the manifest of what DIR will hold that is ours to `files`, and says which files
/// to prune: stale ones with `prune`, none without (they stay listed, still ours).
std::vector<std::string> plan_manifest(const RootDir& root, const OutputDirOptions& options,
                                       OutputFiles* files, Diagnostics* diagnostics) {
  ManifestReview review = review_manifest(root.fd(), root.path(), *files, diagnostics);
  Manifest next;
  for (const auto& [name, contents] : *files)
    next[name] = sha256_hex(contents);
  std::vector<std::string> removals;
  for (const std::string& name : review.stale) {
    if (options.prune) {
      removals.push_back(name);
    } else {
      next[name] = review.current[name];
    }
  }
  for (const std::string& name : review.edited) {
    if (!options.prune) continue;
    diagnostics->warning(
        root.path() + "/" + name, {}, "",
        std::string("changed since render wrote it (see ") + kManifestName + "); --prune keeps it");
  }
  (*files)[kManifestName] = format_manifest(next);
  return removals;
}

bool write_into(const RootDir& root, OutputFiles files, const OutputDirOptions& options,
                Diagnostics* diagnostics) {
  std::vector<std::string> removals = plan_manifest(root, options, &files, diagnostics);
  if (!check_targets(root, files, diagnostics)) return false;
  Staging staging;
  std::string error;
  bool ok = staging.open(root, &error);
  for (auto it = files.begin(); ok && it != files.end(); ++it)
    ok = staging.dir().write_file(it->first, it->second, 0644, &error);
  ok = ok && move_into_place(root, staging, files, removals, &error);
  if (!ok) diagnostics->error(root.path(), {}, "", "--output-dir: " + error);
  return ok;
}

}  // namespace

bool write_output_files(const std::string& dir, const OutputFiles& files,
                        const OutputDirOptions& options, Diagnostics* diagnostics) {
  std::vector<std::string> created;
  std::string error;
  RootDir root;
  bool ok = make_missing_dirs(dir, &created, &error) && root.open(dir, &error);
  if (!ok) {
    diagnostics->error(dir, {}, "", "--output-dir: " + error);
  } else {
    ok = write_into(root, files, options, diagnostics);
  }
  if (!ok) remove_created_dirs(created);
  return ok;
}

}  // namespace trainjob
