// `--from-file` of `run --local` and `submit`: the ConfigMap a TrainJob mounts, built from
// local files. Offline, so that `run --local` needs nothing of lib/kube.
#ifndef TRAINJOB_PIPELINE_CONFIG_MAP_FILES_H_
#define TRAINJOB_PIPELINE_CONFIG_MAP_FILES_H_

#include <optional>
#include <string>
#include <vector>

#include "load/json.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

/// The API server refuses a ConfigMap over 1 MiB (data and binaryData together).
constexpr size_t kConfigMapLimitBytes = size_t{1024} * 1024;

struct FileEntry {
  std::string key;  ///< the file's base name, as kubectl create configmap --from-file uses it
  std::string bytes;
};

bool valid_utf8(const std::string& bytes);

/// data for UTF-8 files, binaryData (base64) for the rest; labelled for the TrainJob.
Json config_map_from_files(const std::string& name, const std::string& trainjob,
                           const std::vector<FileEntry>& files);
/// What counts towards the 1 MiB limit: keys plus values of data and binaryData.
size_t config_map_size(const Json& config_map);
/// `<trainjob>-files-<10 hex digits of the SHA-256 of names and contents>`.
std::string hashed_config_map_name(const std::string& trainjob,
                                   const std::vector<FileEntry>& files);

/// The ConfigMaps the rendered Jobs mount as volumes, in order, each once.
std::vector<std::string> mounted_config_maps(const std::vector<Json>& objects);
/// Adds a volume for `config_map` at /workspace to the `node` container of the Jobs of
/// replicated job `node` (the trainer), for TrainJobs that mount none yet.
void mount_config_map(std::vector<Json>* objects, const std::string& config_map);

/// What `--from-file PATH...` means for a TrainJob's rendered `objects`: the files, keyed by
/// base name, become the ConfigMap the Jobs mount (one not among `input_config_maps`), or a
/// content-hashed one mounted at /workspace. Returns the ConfigMap, in `name_space`; nullopt
/// with `*error` for an unreadable file, a bad or repeated key, several candidate
/// ConfigMaps, or more than 1 MiB.
std::optional<Json> config_map_for_files(const std::vector<std::string>& paths,
                                         const std::string& trainjob, const std::string& name_space,
                                         const std::vector<std::string>& input_config_maps,
                                         std::vector<Json>* objects, std::string* error);

/// `--from-file PATH...` of `run --local` and `submit`: adds to `objects` (the rendered
/// objects of `rendered`) the ConfigMap of the files for the one TrainJob among
/// `rendered`, in its namespace (else `default_namespace`, else "default"), and mounts it
/// when the Jobs mount none. Nothing when `paths` is empty or there is no TrainJob. False
/// with `*error` (starting "--from-file") when there are several TrainJobs or
/// config_map_for_files refuses.
bool add_files_config_map(const std::vector<std::string>& paths, const RenderResult& rendered,
                          const std::string& default_namespace, std::vector<Json>* objects,
                          std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_CONFIG_MAP_FILES_H_
