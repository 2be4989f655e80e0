#include "kube/config_map_files.h"

#include <algorithm>

#include "kube/environment.h"
#include "kube/objects.h"
#include "kube/resources.h"
#include "kube/rest_config.h"
#include "render/operator_labels.h"
#include "util/base64.h"
#include "util/crypto_library.h"

namespace trainjob {

bool valid_config_map_key(const std::string& key) {
  if (key.empty() || key == "." || key == ".." || key.size() > 253) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

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
  EVP_MD_CTX* context = crypto().md_ctx_new();
  crypto().digest_init_ex(context, crypto().sha256(), nullptr);
  for (const FileEntry& file : files) {
    crypto().digest_update(context, file.key.data(), file.key.size());
    crypto().digest_update(context, "\0", 1);
    crypto().digest_update(context, file.bytes.data(), file.bytes.size());
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  crypto().digest_final_ex(context, digest, &length);
  crypto().md_ctx_free(context);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (int i = 0; i < 5; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 15]);
  }
  return trainjob + "-files-" + hex;
}

std::vector<std::string> mounted_config_maps(const std::vector<Json>& objects) {
  std::vector<std::string> names;
  for (const Json& object : objects) {
    if (string_member(object, "kind") != "Job") continue;
    const Json* volumes = &object;
    for (const char* key : {"spec", "template", "spec", "volumes"}) {
      if (!volumes->is_object() || !volumes->contains(key)) {
        volumes = nullptr;
        break;
      }
      volumes = &(*volumes)[key];
    }
    if (volumes == nullptr || !volumes->is_array()) continue;
    for (const Json& volume : *volumes) {
      std::string name = string_member(member(volume, "configMap"), "name");
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  }
  return names;
}

void mount_config_map(std::vector<Json>* objects, const std::string& config_map) {
  for (Json& object : *objects) {
    if (string_member(object, "kind") != "Job") continue;
    if (step_place_of(object).step != "node") continue;
    Json& pod_spec = object["spec"]["template"]["spec"];
    pod_spec["volumes"].push_back(
        {{"name", "trainjob-files"}, {"configMap", {{"name", config_map}}}});
    for (Json& container : pod_spec["containers"]) {
      if (string_member(container, "name") != "node") continue;
      container["volumeMounts"].push_back(
          {{"name", "trainjob-files"}, {"mountPath", "/workspace"}});
    }
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
  RealEnvironment env;
  std::vector<FileEntry> files;
  for (const std::string& path : paths) {
    std::optional<std::string> bytes = env.read_file(path);
    if (!bytes) {
      *error = " " + path + ": cannot read the file";
      return std::nullopt;
    }
    FileEntry entry{file_key(path), std::move(*bytes)};
    if (!valid_config_map_key(entry.key)) {
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

}  // namespace trainjob
