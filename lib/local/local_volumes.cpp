#include "local/local_volumes.h"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

#include "util/base64.h"

namespace trainjob {
namespace {

namespace fs = std::filesystem;

/// The mode Kubernetes gives ConfigMap files unless told otherwise (0644).
constexpr int kDefaultFileMode = 0644;

bool write_file(const fs::path& path, const std::string& bytes, int mode, std::string* error) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out || ::chmod(path.c_str(), static_cast<mode_t>(mode)) != 0) {
    *error = "cannot write " + path.string();
    return false;
  }
  return true;
}

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

bool write_config_map(const LocalVolume& volume, std::string* error) {
  fs::path dir = volume.host_dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (volume.config_map == nullptr) return true;  // optional and absent: an empty directory
  std::map<std::string, std::string> entries;
  if (!config_map_entries(*volume.config_map, &entries, error)) return false;
  int default_mode = volume.source.value("defaultMode", kDefaultFileMode);
  auto items = volume.source.find("items");
  if (items == volume.source.end() || !items->is_array()) {
    for (const auto& [key, bytes] : entries) {
      if (!write_file(dir / key, bytes, default_mode, error)) return false;
    }
    return true;
  }
  for (const Json& item : *items) {
    std::string key = item.value("key", "");
    auto entry = entries.find(key);
    if (entry == entries.end()) {
      *error = "items: the ConfigMap has no key \"" + key + "\"";
      return false;
    }
    int mode = item.value("mode", default_mode);
    if (!write_file(dir / item.value("path", key), entry->second, mode, error)) return false;
  }
  return true;
}

bool check_host_path(const LocalVolume& volume, std::string* error) {
  std::string type = volume.source.value("type", "");
  fs::path path = volume.host_dir;
  std::error_code ec;
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

}  // namespace

bool materialize_volumes(const LocalPlan& plan, std::string* error) {
  for (const std::vector<LocalPod>& stage : plan.stages) {
    for (const LocalPod& pod : stage) {
      for (const LocalVolume& volume : pod.volumes) {
        if (volume.host_dir.empty()) continue;
        bool ok = true;
        switch (volume.kind) {
          case LocalVolume::Kind::kConfigMap:
            ok = write_config_map(volume, error);
            break;
          case LocalVolume::Kind::kHostPath:
            ok = check_host_path(volume, error);
            break;
          case LocalVolume::Kind::kEmptyDir: {
            std::error_code ec;
            fs::create_directories(volume.host_dir, ec);
            break;
          }
        }
        if (!ok) {
          *error = "pod " + pod.name + ", volume " + volume.name + ": " + *error;
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace trainjob
