#include "pipeline/config_map_files.h"

#include <algorithm>

#include "load/file_system.h"
#include "model/operator_labels.h"
#include "model/pod_spec.h"
#include "model/vocabulary.h"
#include "pipeline/input_names.h"
#include "util/base64.h"
#include "util/digest.h"

namespace trainjob {

bool valid_utf8(const std::string& bytes) {
  size_t i = 0;
  while (i < bytes.size()) {
    auto c = static_cast<unsigned char>(bytes[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + extra >= bytes.size() + (extra == 0 ? 1 : 0)) return false;
    for (int k = 1; k <= extra; ++k) {
      if (i + k >= bytes.size() || (static_cast<unsigned char>(bytes[i + k]) >> 6) != 2)
        return false;
    }
    i += extra + 1;
  }
  return true;
}

Json config_map_from_files(const std::string& name, const std::string& trainjob,
                           const std::vector<FileEntry>& files) {
  Json data = Json::object();
  Json binary = Json::object();
  for (const FileEntry& file : files) {
    if (valid_utf8(file.bytes)) {
      data[file.key] = file.bytes;
    } else {
      binary[file.key] = encode_base64(file.bytes);
    }
  }
  Json config_map = {
      {"apiVersion", "v1"},
      {"kind", "ConfigMap"},
      {"metadata",
       {{"name", name},
        {"labels", {{kTrainJobNameLabel, trainjob}, {kManagedByLabel, kManagedByValue}}}}}};
  if (!data.empty()) config_map["data"] = data;
  if (!binary.empty()) config_map["binaryData"] = binary;
  return config_map;
}

size_t config_map_size(const Json& config_map) {
  size_t total = 0;
  for (const char* field : {"data", "binaryData"}) {
    if (!config_map.contains(field)) continue;
    for (const auto& [key, value] : config_map[field].items()) {
      // binaryData counts decoded bytes, as the API server counts them.
      size_t bytes = value.get_ref<const std::string&>().size();
      if (std::string(field) == "binaryData") bytes = bytes / 4 * 3;
      total += key.size() + bytes;
    }
  }
  return total;
}

std::string hashed_config_map_name(const std::string& trainjob,
                                   const std::vector<FileEntry>& files) {
  // Name and contents of each file, a NUL after the name so that "ab"+"c" and "a"+"bc" differ.
  std::string hashed;
  for (const FileEntry& file : files) {
    hashed += file.key;
    hashed.push_back('\0');
    hashed += file.bytes;
  }
  return trainjob + "-files-" + sha256_hex(hashed).substr(0, 10);
}

std::vector<std::string> mounted_config_maps(const std::vector<Json>& objects) {
  std::vector<std::string> names;
  for (const Json& object : objects) {
    if (string_member(object, "kind") != "Job") continue;
    const Json& volumes = json_member(
        json_member(json_member(json_member(object, "spec"), "template"), "spec"), "volumes");
    if (!volumes.is_array()) continue;
    for (const Json& volume : volumes) {
      std::string name = string_member(json_member(volume, "configMap"), "name");
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  }
  return names;
}

void mount_config_map(std::vector<Json>* objects, const std::string& config_map) {
  for (Json& object : *objects) {
    if (string_member(object, "kind") != "Job") continue;
    if (step_place_of(object).step != kNodeName) continue;
    Json& pod_spec = object["spec"]["template"]["spec"];
    pod_spec["volumes"].push_back(
        {{"name", "trainjob-files"}, {"configMap", {{"name", config_map}}}});
    if (Json* node = find_container(&pod_spec, kNodeName))
      (*node)["volumeMounts"].push_back({{"name", "trainjob-files"}, {"mountPath", "/workspace"}});
  }
}

namespace {

std::string file_key(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The files, keyed by base name; nullopt with `*error` on the first that cannot be used.
std::optional<std::vector<FileEntry>> read_entries(const std::vector<std::string>& paths,
                                                   std::string* error) {
  RealFileSystem fs;
  std::vector<FileEntry> files;
  for (const std::string& path : paths) {
    FileEntry entry{file_key(path), {}};
    std::string unused;
    if (!fs.read_file(path, &entry.bytes, &unused)) {
      *error = " " + path + ": cannot read the file";
      return std::nullopt;
    }
    if (!is_config_map_key(entry.key)) {
      *error =
          " " + path + ": \"" + entry.key + "\" is not a valid ConfigMap key ([-._a-zA-Z0-9]+)";
      return std::nullopt;
    }
    for (const FileEntry& other : files) {
      if (other.key == entry.key) {
        *error = " " + path + ": a file named " + entry.key + " was given already";
        return std::nullopt;
      }
    }
    files.push_back(std::move(entry));
  }
  return files;
}

}  // namespace

std::optional<Json> config_map_for_files(const std::vector<std::string>& paths,
                                         const std::string& trainjob, const std::string& name_space,
                                         const std::vector<std::string>& input_config_maps,
                                         std::vector<Json>* objects, std::string* error) {
  std::optional<std::vector<FileEntry>> files = read_entries(paths, error);
  if (!files) return std::nullopt;
  std::vector<std::string> mounted = mounted_config_maps(*objects);
  for (const std::string& input : input_config_maps)
    mounted.erase(std::remove(mounted.begin(), mounted.end(), input), mounted.end());
  if (mounted.size() > 1) {
    *error = ": the TrainJob mounts " + std::to_string(mounted.size()) + " ConfigMaps (" +
             mounted[0] + ", " + mounted[1] +
             "...); say which in the TrainJob or create it with kubectl create configmap";
    return std::nullopt;
  }
  std::string name = mounted.empty() ? hashed_config_map_name(trainjob, *files) : mounted[0];
  if (mounted.empty()) mount_config_map(objects, name);
  Json config_map = config_map_from_files(name, trainjob, *files);
  config_map["metadata"]["namespace"] = name_space;
  size_t size = config_map_size(config_map);
  if (size > kConfigMapLimitBytes) {
    *error = ": ConfigMap \"" + name + "\" would hold " + std::to_string(size) +
             " bytes, over the limit of " + std::to_string(kConfigMapLimitBytes) +
             " bytes (1 MiB) the API server sets; put large files in an image or a volume";
    return std::nullopt;
  }
  return config_map;
}

bool add_files_config_map(const std::vector<std::string>& paths, const RenderResult& rendered,
                          const std::string& default_namespace, std::vector<Json>* objects,
                          std::string* error) {
  if (paths.empty()) return true;
  const Document* trainjob = nullptr;
  std::vector<std::string> inputs;  // ConfigMaps given as inputs are not ours to fill
  for (const RenderedUnit& unit : rendered.units) {
    if (unit.compiled) {
      if (trainjob != nullptr) {
        *error = "--from-file takes exactly one TrainJob among the inputs";
        return false;
      }
      trainjob = unit.source;
    } else if (string_member(unit.objects[0], "kind") == "ConfigMap") {
      inputs.push_back(string_member(json_member(unit.objects[0], "metadata"), "name"));
    }
  }
  if (trainjob == nullptr) return true;  // nothing mounts the files; the caller says so
  std::string name_space = trainjob->name_space();
  if (name_space.empty()) name_space = default_namespace.empty() ? "default" : default_namespace;
  std::optional<Json> config_map =
      config_map_for_files(paths, trainjob->name(), name_space, inputs, objects, error);
  if (!config_map) {
    *error = "--from-file" + *error;
    return false;
  }
  objects->push_back(std::move(*config_map));
  return true;
}

}  // namespace trainjob
