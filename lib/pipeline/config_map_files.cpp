#include "pipeline/config_map_files.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "crypto/base64.h"
#include "crypto/digest.h"
#include "k8s/pod_spec.h"
#include "load/file_system.h"
#include "model/step_place.h"
#include "model/vocabulary.h"
#include "pipeline/input_names.h"

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

constexpr const char* kWorkspacePath = "/workspace";

std::string file_key(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// `paths` with each directory replaced by the files in it, as kubectl create configmap
/// --from-file=DIR takes them: regular files only, not what is in subdirectories.
std::vector<std::string> expand_directories(const FileSystem& fs,
                                            const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::vector<std::string> names;
    std::string unused;
    if (fs.stat(path) != FileSystem::Kind::kDirectory ||
        !fs.list_directory(path, &names, &unused)) {
      out.push_back(path);  // read_entries says what is wrong with it
      continue;
    }
    std::string dir = path.empty() || path.back() == '/' ? path : path + "/";
    for (const std::string& name : names)
      if (fs.stat(dir + name) == FileSystem::Kind::kFile) out.push_back(dir + name);
  }
  return out;
}

/// The files, keyed by base name; nullopt with `*error` on the first that cannot be used.
std::optional<std::vector<FileEntry>> read_entries(const std::vector<std::string>& paths,
                                                   std::string* error) {
  RealFileSystem fs;
  std::vector<FileEntry> files;
  for (const std::string& path : expand_directories(fs, paths)) {
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

/// `file:line:col` of the key of `path` in `document`.
std::string where_in(const Document& document, std::string_view path) {
  SourcePos pos = document.key_pos_of(path);
  return document.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

bool config_map_holds(const Json& config_map, const std::string& key) {
  for (const char* field : {"data", "binaryData"}) {
    const Json& entries = json_member(config_map, field);
    if (entries.is_object() && entries.contains(key)) return true;
  }
  return false;
}

/// The file as the ConfigMap's entry `key`, in data or binaryData (dropped from the other).
void put_file(const FileEntry& file, Json* config_map) {
  bool text = valid_utf8(file.bytes);
  const char* field = text ? "data" : "binaryData";
  const char* other = text ? "binaryData" : "data";
  if (config_map->contains(other) && (*config_map)[other].is_object()) {
    (*config_map)[other].erase(file.key);
    if ((*config_map)[other].empty()) config_map->erase(other);
  }
  (*config_map)[field][file.key] = text ? file.bytes : encode_base64(file.bytes);
}

/// Where the files of --from-file go. A ConfigMap among the inputs that the Jobs mount is
/// the TrainJob's own copy of the files (`init --mode configmap` writes one): a file it
/// holds replaces its entry there, same name, same mount, so that editing the file and
/// running again runs the edit.
struct FilesPlacement {
  std::map<std::string, std::vector<FileEntry>> into_inputs;  ///< input ConfigMap -> files
  std::vector<FileEntry> rest;                                ///< files no input holds
};

/// The input ConfigMaps the Jobs mount, in input order.
std::vector<const Document*> mounted_inputs(const std::vector<const Document*>& inputs,
                                            const std::vector<std::string>& mounted) {
  std::vector<const Document*> out;
  for (const Document* input : inputs)
    if (std::find(mounted.begin(), mounted.end(), input->name()) != mounted.end())
      out.push_back(input);
  return out;
}

/// Each file into the mounted input ConfigMap that holds its key; false with `*error` when
/// two of them hold it (which copy the pods read would depend on the mount order).
bool place_held_files(const std::vector<FileEntry>& files,
                      const std::vector<const Document*>& mounted, FilesPlacement* placement,
                      std::string* error) {
  for (const FileEntry& file : files) {
    std::vector<const Document*> holders;
    for (const Document* input : mounted)
      if (config_map_holds(input->value, file.key)) holders.push_back(input);
    if (holders.size() > 1) {
      *error = " " + file.key + ": ConfigMaps " + holders[0]->name() + " (" +
               where_in(*holders[0], "metadata.name") + ") and " + holders[1]->name() + " (" +
               where_in(*holders[1], "metadata.name") + ") both hold " + file.key +
               " and the Jobs mount both; keep the file in one of them";
      return false;
    }
    if (holders.empty()) {
      placement->rest.push_back(file);
    } else {
      placement->into_inputs[holders[0]->name()].push_back(file);
    }
  }
  return true;
}

/// What the trainer's `node` container mounts at /workspace: the volume's name and, for a
/// configMap volume, the ConfigMap's; empty when nothing is mounted there.
struct WorkspaceMount {
  std::string volume;
  std::string config_map;
};

WorkspaceMount workspace_mount(const std::vector<Json>& objects) {
  for (const Json& object : objects) {
    if (string_member(object, "kind") != "Job" || step_place_of(object).step != kNodeName) continue;
    Json pod_spec = json_member(json_member(json_member(object, "spec"), "template"), "spec");
    const Json* node = find_container(&pod_spec, kNodeName);
    if (node == nullptr || !json_member(*node, "volumeMounts").is_array()) continue;
    for (const Json& mount : (*node)["volumeMounts"]) {
      if (string_member(mount, "mountPath") != kWorkspacePath) continue;
      WorkspaceMount found{string_member(mount, "name"), {}};
      const Json& volumes = json_member(pod_spec, "volumes");
      for (const Json& volume : volumes.is_array() ? volumes : Json::array())
        if (string_member(volume, "name") == found.volume)
          found.config_map = string_member(json_member(volume, "configMap"), "name");
      return found;
    }
  }
  return {};
}

std::string size_error(const std::string& name, size_t size) {
  return ": ConfigMap \"" + name + "\" would hold " + std::to_string(size) +
         " bytes, over the limit of " + std::to_string(kConfigMapLimitBytes) +
         " bytes (1 MiB) the API server sets; put large files in an image or a volume";
}

/// The files of `placement` into the input ConfigMaps among `objects` that hold them.
bool fill_inputs(const FilesPlacement& placement, std::vector<Json>* objects, std::string* error) {
  for (Json& object : *objects) {
    if (string_member(object, "kind") != "ConfigMap") continue;
    auto files = placement.into_inputs.find(string_member(json_member(object, "metadata"), "name"));
    if (files == placement.into_inputs.end()) continue;
    for (const FileEntry& file : files->second)
      put_file(file, &object);
    size_t size = config_map_size(object);
    if (size > kConfigMapLimitBytes) {
      *error = size_error(files->first, size);
      return false;
    }
  }
  return true;
}

/// Where the files no input ConfigMap holds go: `name` (empty: a new, content-hashed one
/// mounted at /workspace), labelled for `trainjob`, in `name_space`; `location` is the
/// TrainJob's place in the input, for messages.
struct FilesTarget {
  std::string name;
  std::string trainjob;
  std::string name_space;
  std::string location;
};

std::optional<Json> config_map_for_files(const std::vector<FileEntry>& files,
                                         const FilesTarget& target, std::vector<Json>* objects,
                                         std::string* error) {
  std::string name =
      target.name.empty() ? hashed_config_map_name(target.trainjob, files) : target.name;
  if (target.name.empty()) {
    std::string taken = workspace_mount(*objects).volume;
    if (!taken.empty()) {
      *error = ": the trainer's node container mounts volume \"" + taken + "\" at " +
               kWorkspacePath + " already, and it is no ConfigMap the files can go into (" +
               target.location + "); mount a ConfigMap there, or leave --from-file out";
      return std::nullopt;
    }
    mount_config_map(objects, name);
  }
  Json config_map = config_map_from_files(name, target.trainjob, files);
  config_map["metadata"]["namespace"] = target.name_space;
  size_t size = config_map_size(config_map);
  if (size > kConfigMapLimitBytes) {
    *error = size_error(name, size);
    return std::nullopt;
  }
  return config_map;
}

/// Where `placement.rest` goes: the one mounted ConfigMap not among the inputs (built from
/// the files), else the input ConfigMap mounted at /workspace (where a new one would go),
/// else a new one (target->name left empty). False with `*error` when the Jobs mount several
/// ConfigMaps that are not among the inputs.
bool choose_rest_target(const std::vector<std::string>& mounted,
                        const std::vector<const Document*>& inputs,
                        const std::vector<Json>& objects, FilesPlacement* placement,
                        FilesTarget* target, std::string* error) {
  std::vector<std::string> built = mounted;
  for (const Document* input : inputs)
    built.erase(std::remove(built.begin(), built.end(), input->name()), built.end());
  if (built.size() > 1) {
    *error = ": the TrainJob mounts " + std::to_string(built.size()) + " ConfigMaps (" + built[0] +
             ", " + built[1] +
             "...); say which in the TrainJob or create it with kubectl create configmap";
    return false;
  }
  if (!built.empty()) {
    target->name = built[0];
    return true;
  }
  std::string workspace = workspace_mount(objects).config_map;
  for (const Document* input : mounted_inputs(inputs, mounted)) {
    if (input->name() != workspace) continue;
    auto& into = placement->into_inputs[workspace];
    into.insert(into.end(), placement->rest.begin(), placement->rest.end());
    placement->rest.clear();
  }
  return true;
}

/// Reads the files and puts each where it belongs (see FilesPlacement), adding to `objects`
/// the ConfigMap of the files no input holds, mounted when it is new.
bool place_files(const std::vector<std::string>& paths, const std::vector<const Document*>& inputs,
                 FilesTarget target, std::vector<Json>* objects, std::string* error) {
  std::optional<std::vector<FileEntry>> files = read_entries(paths, error);
  if (!files) return false;
  std::vector<std::string> mounted = mounted_config_maps(*objects);
  FilesPlacement placement;
  if (!place_held_files(*files, mounted_inputs(inputs, mounted), &placement, error) ||
      (!placement.rest.empty() &&
       !choose_rest_target(mounted, inputs, *objects, &placement, &target, error)) ||
      !fill_inputs(placement, objects, error))
    return false;
  if (placement.rest.empty()) return true;
  std::optional<Json> config_map = config_map_for_files(placement.rest, target, objects, error);
  if (!config_map) return false;
  objects->push_back(std::move(*config_map));
  return true;
}

}  // namespace

bool add_files_config_map(const std::vector<std::string>& paths, const RenderResult& rendered,
                          const std::string& default_namespace, std::vector<Json>* objects,
                          std::string* error) {
  if (paths.empty()) return true;
  const Document* trainjob = nullptr;
  std::vector<const Document*> inputs;  // the ConfigMaps among the inputs
  for (const RenderedUnit& unit : rendered.units) {
    if (unit.compiled) {
      if (trainjob != nullptr) {
        *error = "--from-file takes exactly one TrainJob among the inputs";
        return false;
      }
      trainjob = unit.source;
    } else if (string_member(unit.objects[0], "kind") == "ConfigMap") {
      inputs.push_back(unit.source);
    }
  }
  if (trainjob == nullptr) return true;  // nothing mounts the files; the caller says so
  std::string name_space = trainjob->name_space();
  if (name_space.empty()) name_space = default_namespace.empty() ? "default" : default_namespace;
  FilesTarget target{{}, trainjob->name(), name_space, where_in(*trainjob, "metadata.name")};
  if (!place_files(paths, inputs, target, objects, error)) {
    *error = "--from-file" + *error;
    return false;
  }
  return true;
}

}  // namespace trainjob
