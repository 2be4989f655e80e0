#include "local/local_volumes.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "crypto/base64.h"
#include "local/plan/plan_checks.h"

namespace trainjob {
namespace {

namespace fs = std::filesystem;

/// The mode Kubernetes gives ConfigMap files unless told otherwise (0644).
constexpr int kDefaultFileMode = 0644;

/// The ConfigMap's keys: data as text, binaryData decoded.
bool config_map_entries(const Json& config_map, std::map<std::string, std::string>* entries,
                        std::string* error) {
  Json data = config_map.value("data", Json::object());
  for (const auto& entry : data.items()) {
    if (entry.value().is_string()) (*entries)[entry.key()] = entry.value().get<std::string>();
  }
  Json binary_data = config_map.value("binaryData", Json::object());
  for (const auto& entry : binary_data.items()) {
    std::optional<std::string> bytes =
        entry.value().is_string() ? decode_base64(entry.value().get<std::string>()) : std::nullopt;
    if (!bytes) {
      *error = "binaryData." + entry.key() + " is not base64";
      return false;
    }
    (*entries)[entry.key()] = std::move(*bytes);
  }
  return true;
}

/// A file mode from the volume source; local_checks refused anything but 0 to 0777.
mode_t mode_of(const Json& object, const char* key, int fallback) {
  auto it = object.find(key);
  return static_cast<mode_t>(it != object.end() && it->is_number_integer() ? it->get<int>()
                                                                           : fallback);
}

/// Files of one configMap volume, relative to its directory, with their bytes and modes.
struct VolumeFile {
  std::string path;
  const std::string* bytes;
  mode_t mode;
};

bool config_map_files(const LocalVolume& volume, const std::map<std::string, std::string>& entries,
                      std::vector<VolumeFile>* files, std::string* error) {
  mode_t default_mode = mode_of(volume.source, "defaultMode", kDefaultFileMode);
  auto items = volume.source.find("items");
  if (items == volume.source.end() || !items->is_array()) {
    for (const auto& [key, bytes] : entries)
      files->push_back({key, &bytes, default_mode});
    return true;
  }
  for (const Json& item : *items) {
    std::string key = string_member(item, "key");
    auto entry = entries.find(key);
    if (entry == entries.end()) {
      *error = "items: the ConfigMap has no key " + quoted_value(key);
      return false;
    }
    std::string path = string_member(item, "path");
    files->push_back({path.empty() ? key : path, &entry->second,
                      mode_of(item, "mode", static_cast<int>(default_mode))});
  }
  return true;
}

std::string joined(const std::string& dir, const std::string& name) {
  std::string path = dir;
  path += '/';
  path += name;
  return path;
}

/// Takes write permission from the files, then from every directory beneath the volume
/// (deepest first, so the ones above stay enterable while it is done), then the volume.
bool make_volume_read_only(const RootDir& work, const std::string& dir,
                           const std::vector<VolumeFile>& files, std::string* error) {
  std::vector<std::string> dirs;
  for (const VolumeFile& file : files) {
    if (!work.make_read_only(joined(dir, file.path), error)) return false;
    for (size_t slash = file.path.find('/'); slash != std::string::npos;
         slash = file.path.find('/', slash + 1))
      dirs.push_back(file.path.substr(0, slash));
  }
  std::sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  for (const std::string& sub : dirs) {
    if (!work.make_read_only(joined(dir, sub), error)) return false;
  }
  return work.make_read_only(dir, error);
}

bool write_config_map(const LocalVolume& volume, const RootDir& work, std::string* error) {
  if (!work.make_dirs(volume.work_relative, 0755, error)) return false;
  std::map<std::string, std::string> entries;
  std::vector<VolumeFile> files;
  // Optional and absent: an empty directory.
  if (volume.config_map != nullptr && (!config_map_entries(*volume.config_map, &entries, error) ||
                                       !config_map_files(volume, entries, &files, error))) {
    return false;
  }
  for (const VolumeFile& file : files) {
    if (!work.write_file(joined(volume.work_relative, file.path), *file.bytes, file.mode, error))
      return false;
  }
  return !volume.read_only || make_volume_read_only(work, volume.work_relative, files, error);
}

bool check_host_path(const LocalVolume& volume, bool allow_host_path, std::string* error) {
  std::string type = volume.source.value("type", "");
  fs::path path = volume.host_dir;
  std::error_code ec;
  // The plan refused the path as written; a symlink to /etc is refused here, before
  // DirectoryOrCreate or FileOrCreate could create anything through it.
  fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
  std::string refusal = allow_host_path || ec ? "" : host_path_refusal(resolved.string());
  if (!refusal.empty()) {
    *error = "hostPath.path " + quoted_value(path.string()) + " (" + resolved.string() +
             ") is refused: " + refusal +
             " would be open to the pod; pass --allow-host-path to run it anyway";
    return false;
  }
  if (type == "DirectoryOrCreate") {
    fs::create_directories(path, ec);
  } else if (type == "FileOrCreate" && !fs::exists(path, ec)) {
    std::ofstream(path).close();
  }
  bool ok = type.empty() || fs::exists(path, ec);
  if (type == "Directory" || type == "DirectoryOrCreate") ok = fs::is_directory(path, ec);
  if (type == "File" || type == "FileOrCreate") ok = fs::is_regular_file(path, ec);
  if (!ok) {
    *error = "hostPath " + path.string() + " is not " +
             (type.find("Directory") == 0 ? std::string("a directory") : "a " + type);
  }
  return ok;
}

bool materialize_volume(const LocalVolume& volume, const RootDir& work, bool allow_host_path,
                        std::string* error) {
  switch (volume.kind) {
    case LocalVolume::Kind::kConfigMap:
      return write_config_map(volume, work, error);
    case LocalVolume::Kind::kHostPath:
      return check_host_path(volume, allow_host_path, error);
    case LocalVolume::Kind::kEmptyDir:
      return work.make_dirs(volume.work_relative, 0755, error) &&
             (!volume.read_only || work.make_read_only(volume.work_relative, error));
  }
  return true;
}

}  // namespace

bool materialize_volumes(const LocalPlan& plan, const RootDir& work, bool allow_host_path,
                         std::string* error) {
  for (const std::vector<LocalPod>& stage : plan.stages) {
    for (const LocalPod& pod : stage) {
      for (const LocalVolume& volume : pod.volumes) {
        if (volume.host_dir.empty()) continue;
        if (!materialize_volume(volume, work, allow_host_path, error)) {
          *error = "pod " + pod.name + ", volume " + quoted_value(volume.name) + ": " + *error;
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace trainjob
