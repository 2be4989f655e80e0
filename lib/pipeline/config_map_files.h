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

/// `--from-file PATH...` of `run --local` and `submit`, for the one TrainJob among
/// `rendered` whose objects (and the other inputs) are `objects`. The files, keyed by base
/// name, go where the pods already read them: a file held by a ConfigMap among the inputs
/// that the Jobs mount replaces that entry (same ConfigMap, same mount: the loop of `init
/// --mode configmap`); the others go into the one ConfigMap the Jobs mount that is not among
/// the inputs (built from the files), else into the input ConfigMap mounted at /workspace,
/// else into a new content-hashed one mounted there, in the TrainJob's namespace (else
/// `default_namespace`, else "default"). Nothing when `paths` is empty or there is no
/// TrainJob. False with `*error` (starting "--from-file", located in the input where it can
/// be) for several TrainJobs, an unreadable file, a bad or repeated key, a key two mounted
/// ConfigMaps hold, several ConfigMaps to build, /workspace taken by a volume that is no
/// ConfigMap, or a ConfigMap over 1 MiB.
bool add_files_config_map(const std::vector<std::string>& paths, const RenderResult& rendered,
                          const std::string& default_namespace, std::vector<Json>* objects,
                          std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_PIPELINE_CONFIG_MAP_FILES_H_
