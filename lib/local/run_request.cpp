// From what `run --local` was given (rendered inputs, --from-file, --image-map) to the
// request run_local_job runs.
#include <filesystem>

#include "local/run_local.h"
#include "model/vocabulary.h"
#include "pipeline/config_map_files.h"

namespace trainjob {

namespace fs = std::filesystem;

bool run_rendered_locally(const RenderResult& rendered, const std::vector<std::string>& from_files,
                          LocalRunRequest request, std::string* error) {
  for (const RenderedUnit& unit : rendered.units)
    request.objects.insert(request.objects.end(), unit.objects.begin(), unit.objects.end());
  if (!add_files_config_map(from_files, rendered, request.default_namespace, &request.objects,
                            error))
    return false;
  std::error_code ec;
  request.temp_dir = fs::temp_directory_path(ec).string();
  return run_local_job(std::move(request), error);
}

bool parse_image_maps(const std::vector<std::string>& maps,
                      std::map<std::string, std::string>* image_dirs, std::string* error) {
  std::string trainer = trainer_dir_beside_self();
  if (!trainer.empty()) (*image_dirs)[kTrainerImage] = trainer;
  for (const std::string& map : maps) {
    size_t equals = map.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == map.size()) {
      *error = "--image-map: expected IMAGE=DIR, found \"" + map + "\"";
      return false;
    }
    std::error_code ec;
    fs::path dir = fs::absolute(map.substr(equals + 1), ec);
    (*image_dirs)[map.substr(0, equals)] = dir.string();
  }
  return true;
}

}  // namespace trainjob
