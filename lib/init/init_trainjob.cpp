#include "init/init_trainjob.h"

#include <map>
#include <vector>

#include "embed/embedded.h"
#include "k8s/names.h"
#include "k8s/quantity.h"
#include "load/json.h"
#include "model/vocabulary.h"
#include "output/json_text.h"
#include "output/yaml_writer.h"
#include "util/text.h"

namespace trainjob {
namespace {

/// The API server refuses a ConfigMap over 1 MiB.
constexpr size_t kConfigMapLimitBytes = size_t{1024} * 1024;
/// The runtime whose node container runs the C++ trainer itself, not a script.
constexpr const char* kTrainerRuntime = "cpp-trainer";
constexpr const char* kPlaceholderImage = "registry.example.com/team/train:latest";

std::string embedded_template(const std::string& path) {
  for (const EmbeddedFile& file : embedded_templates()) {
    if (file.path == path) return std::string(file.contents);
  }
  return {};
}

/// How the pod runs the script: Python under torchrun (which reads the PET_* variables),
/// shell scripts with sh, anything else directly.
std::string script_command(const std::string& script_path) {
  Json words = Json::array();
  if (ends_with(script_path, ".py")) words.push_back("torchrun");
  if (ends_with(script_path, ".sh")) words.push_back("sh");
  words.push_back(script_path);
  std::string out = "[";
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_string(words[i].get<std::string>(), &out);
  }
  return out + "]";
}

bool valid_key(const std::string& key) {
  if (key.empty() || key == "." || key == "..") return false;
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string fill(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    std::string placeholder = "{{" + key + "}}";
    for (size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

bool check_options(const InitOptions& options, std::string* error) {
  if (!is_dns1035_label(options.name)) {
    *error =
        "NAME: expected an RFC 1035 label (lower-case letters, digits and '-', starting "
        "with a letter), found \"" +
        options.name + "\"";
  } else if (options.nodes < 1) {
    *error = "--nodes: expected an integer ≥ 1, found " + std::to_string(options.nodes);
  } else if (!parse_quantity(options.cpu, nullptr)) {
    *error = "--cpu: expected a quantity such as 2 or 500m, found \"" + options.cpu + "\"";
  } else if (!parse_quantity(options.memory, nullptr)) {
    *error = "--memory: expected a quantity such as 4Gi, found \"" + options.memory + "\"";
  } else if (!options.name_space.empty() && !is_dns1035_label(options.name_space)) {
    *error = "--namespace: expected a DNS label, found \"" + options.name_space + "\"";
  } else if (options.runtime == kTrainerRuntime && options.mode != InitMode::kImage) {
    *error = "--runtime cpp-trainer runs trainjob-trainer, not a script: use --mode image";
  } else if (!valid_key(options.script_name)) {
    *error = "--script: the file name \"" + options.script_name +
             "\" is not a valid ConfigMap key ([-._a-zA-Z0-9]+)";
  }
  if (!error->empty()) return false;
  const std::string& procs = options.procs;
  bool word = procs == "auto" || procs == "cpu" || procs == "gpu";
  bool number = !procs.empty() && procs.find_first_not_of("0123456789") == std::string::npos &&
                procs != "0" && procs.size() < 10;
  if (!word && !number) {
    *error = "--procs: expected an integer ≥ 1 or one of auto, cpu, gpu, found \"" + procs + "\"";
    return false;
  }
  if (word && procs != "auto" && !dialect_info(options.trainer_version).string_num_proc) {
    *error = "--procs " + procs + ": Trainer " + dialect_info(options.trainer_version).version +
             " takes an integer or auto; cpu and gpu need --trainer-version 2.1";
    return false;
  }
  if (options.trainer_version == Dialect::kV2_0) {
    *error = "--trainer-version 2.0: init writes TrainJobs for Trainer 2.1 and later";
    return false;
  }
  return true;
}

/// The numProcPerNode line, which follows numNodes. From v2.2 on "auto" is the default and
/// no longer a value, so it is left out.
std::string procs_line(const InitOptions& options) {
  const char* comment = "  # workers per pod: an integer, or auto, cpu, gpu";
  if (!dialect_info(options.trainer_version).string_num_proc) {
    if (options.procs == "auto")
      return "\n    # numProcPerNode left out: a worker per GPU, else per CPU";
    comment = "  # workers per pod; leave it out for one per GPU, else per CPU";
  }
  return "\n    numProcPerNode: " + options.procs + comment;
}

/// The patch that mounts the script's volume at /workspace in container `node`: a
/// runtimePatches entry (v2.2+) or a podTemplateOverrides entry (v2.1), from
/// templates/init/script-volume-<version>.yaml. `source` is the volume source's lines,
/// indented by two spaces per level from zero.
std::string script_volume(const InitOptions& options, const std::vector<std::string>& source,
                          bool read_only) {
  bool patches = options.trainer_version >= Dialect::kV2_2;
  std::string fragment =
      embedded_template(patches ? "script-volume-v2.3.yaml" : "script-volume-v2.1.yaml");
  std::string volume_indent(patches ? 28 : 12, ' ');
  std::string mount_indent(patches ? 32 : 16, ' ');
  std::string volume_source;
  for (const std::string& line : source) {
    if (!volume_source.empty()) volume_source += "\n";
    volume_source += volume_indent + line;
  }
  return fill(fragment, {{"volume_source", volume_source},
                         {"read_only", read_only ? "\n" + mount_indent + "readOnly: true" : ""}});
}

/// The ConfigMap with the script, in the style `kubectl get -o yaml` prints.
bool config_map_yaml(const InitOptions& options, const std::string& script, std::string* out,
                     std::string* error) {
  if (script.size() > kConfigMapLimitBytes) {
    *error = "--script: " + std::to_string(script.size()) +
             " bytes do not fit in a ConfigMap (at most 1 MiB); use --mode hostpath or image";
    return false;
  }
  Json metadata = {{"name", options.name + "-script"}};
  if (!options.name_space.empty()) metadata["namespace"] = options.name_space;
  Json config_map = {{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata", metadata},
                     {"data", {{options.script_name, script}}}};
  *out += "# The training script, mounted at /workspace/" + options.script_name +
          ". Edit it here, or edit your own copy\n# and add `--from-file " + options.script_name +
          "` to `run --local` and `submit`: it replaces the copy here.\n";
  write_yaml(config_map, out);
  *out += "---\n";
  return true;
}

/// `text` as a YAML scalar: plain where that reads back as the same string, else quoted.
std::string scalar(const std::string& text) {
  bool plain = !text.empty() && text.find_first_not_of(
                                    "abcdefghijklmnopqrstuvwxyz"
                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789._/:@-") == std::string::npos;
  if (plain && text.find_first_not_of("0123456789.") != std::string::npos) return text;
  std::string quoted;
  append_json_string(text, &quoted);
  return quoted;
}

/// The image the TrainJob runs: --image, else this release's trainer image for the trainer
/// runtime and a placeholder for a script's.
std::string trainjob_image(const InitOptions& options, bool runs_script) {
  if (!options.image.empty()) return options.image;
  return runs_script
             ? kPlaceholderImage
             : std::string(kTrainerImage) + ":" + TRAINJOB_VERSION;  // --image pins a digest
}

/// Image mode's `run --local` line. The image is not pulled there, so a script baked into
/// it is not on this machine: --from-file mounts the user's copy where the command reads it
/// (--image-map only puts a directory on PATH, which an absolute script path never uses).
std::string local_run_hint(const InitOptions& options, bool runs_script) {
  if (!runs_script)  // the trainer's image maps to the trainjob-trainer beside the plugin
    return "#   kubectl trainjob run --local -f THIS_FILE";
  return "# On this machine the image is not pulled: give run --local your copy of the script\n"
         "# (or the directory holding it), mounted at /workspace as the command expects:\n"
         "#   kubectl trainjob run --local -f THIS_FILE --from-file " +
         options.script_name;
}

/// What the templates' placeholders are filled with (the script volume comes per mode).
std::map<std::string, std::string> template_values(const InitOptions& options,
                                                   const std::string& script_path) {
  bool runs_script = options.runtime != kTrainerRuntime;
  return {
      {"name", options.name},
      {"namespace", options.name_space.empty() ? "" : "\n  namespace: " + options.name_space},
      {"runtime", options.runtime},
      {"nodes", std::to_string(options.nodes)},
      {"procs_line", procs_line(options)},
      {"cpu", options.cpu},
      {"memory", options.memory},
      {"command", script_command(script_path)},
      {"command_line", runs_script ? "\n    command: " + script_command(script_path) +
                                         "  # decide: the script's path inside the image"
                                   : ""},

      {"image", scalar(trainjob_image(options, runs_script))},
      {"local_hint", local_run_hint(options, runs_script)},
  };
}

/// The mode's template filled in, after the script's ConfigMap in ConfigMap mode.
bool append_mode_yaml(const InitOptions& options, const std::string& script_path,
                      std::map<std::string, std::string> values, std::string* yaml,
                      std::string* error) {
  bool executable = !ends_with(script_path, ".py") && !ends_with(script_path, ".sh");
  switch (options.mode) {
    case InitMode::kConfigMap: {
      std::string script =
          options.script_text ? *options.script_text : embedded_template("train.py");
      if (!config_map_yaml(options, script, yaml, error)) return false;
      std::vector<std::string> source = {"configMap:", "  name: " + options.name + "-script"};
      if (executable) source.push_back("  defaultMode: 0755");
      values["script_volume"] = script_volume(options, source, false);
      *yaml += fill(embedded_template("configmap.yaml"), values);
      break;
    }
    case InitMode::kHostPath:
      values["script_volume"] = script_volume(
          options, {"hostPath:", "  path: " + scalar(options.host_path), "  type: Directory"},
          true);
      *yaml += fill(embedded_template("hostpath.yaml"), values);
      break;
    case InitMode::kImage:
      *yaml += fill(embedded_template("image.yaml"), values);
      break;
  }
  return true;
}

}  // namespace

std::optional<InitMode> parse_init_mode(const std::string& name) {
  if (name == "configmap") return InitMode::kConfigMap;
  if (name == "hostpath") return InitMode::kHostPath;
  if (name == "image") return InitMode::kImage;
  return std::nullopt;
}

bool init_trainjob(const InitOptions& given, std::string* yaml, std::string* error) {
  InitOptions options = given;
  if (options.script_name.empty()) options.script_name = "train.py";
  if (!check_options(options, error)) return false;
  std::string script_path = "/workspace/" + options.script_name;
  yaml->clear();
  return append_mode_yaml(options, script_path, template_values(options, script_path), yaml, error);
}

}  // namespace trainjob
