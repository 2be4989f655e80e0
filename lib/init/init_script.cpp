#include "init/init_script.h"

#include <fstream>
#include <sstream>

#include "embed/embedded.h"
#include "load/file_system.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

bool add_init_script(const std::string& path, InitOptions* options, std::string* error) {
  size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (options->mode != InitMode::kConfigMap) {
    options->script_name = name;
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) {
    *error = "--script " + path + ": cannot read the file";
    return false;
  }
  options->script_name = name;
  options->script_text = text.str();
  if (options->script_text->find('\0') != std::string::npos) {
    *error = "--script " + path + ": expected a text file";
    return false;
  }
  return true;
}

bool is_embedded_runtime(const std::string& runtime) {
  for (const EmbeddedFile& file : embedded_runtimes()) {
    if (file.path == runtime + ".yaml") return true;
  }
  return false;
}

Diagnostics check_generated_trainjob(const std::string& yaml) {
  RenderRequest request;
  request.inputs = {{"-"}, false};
  request.sweep.check_only = true;
  Diagnostics diagnostics;
  RealFileSystem fs;
  render_inputs(
      request, fs, [&] { return yaml; }, &diagnostics);
  diagnostics.sort();
  return diagnostics;
}

}  // namespace trainjob
