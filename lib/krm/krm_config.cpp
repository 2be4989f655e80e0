#include "krm/krm_config.h"

#include "k8s/names.h"
#include "load/field_path.h"
#include "model/dialect.h"

namespace trainjob {
namespace {

/// Where the objects of a render go. Each target is one row: the name the configuration
/// gives and what it sets in the request.
struct Target {
  const char* name;
  void (*apply)(RenderRequest* request);
};

const Target kTargets[] = {
    {"jobs", [](RenderRequest*) {}},  // the default: Jobs, a headless Service, extras
    {"jobset",
     [](RenderRequest* request) { request->compile.render_target = RenderTarget::kJobSet; }},
};

/// A field every Kubernetes object may have, which carries no option.
bool is_object_field(std::string_view key) {
  return key == "apiVersion" || key == "kind" || key == "metadata";
}

/// Reports an error at `path`: at the key when the field itself is wrong (`at_key`), at
/// the value otherwise.
class ConfigReader {
 public:
  ConfigReader(const Document& document, RenderRequest* request, Diagnostics* diagnostics)
      : document_(document), request_(request), diagnostics_(diagnostics) {}

  void error(const std::string& path, bool at_key, const std::string& message) {
    SourcePos pos = at_key ? document_.key_pos_of(path) : document_.pos_of(path);
    diagnostics_->error(document_.file, pos, path, message);
  }

  /// The option `key` with its `value` at `path`; `from_strings`: a ConfigMap's data.
  void read_option(const std::string& key, const Json& value, const std::string& path,
                   bool from_strings) {
    if (key == "generateSecrets") {
      read_bool(value, path, from_strings, &request_->compile.generate_secrets);
      return;
    }
    if (key != "namespace" && key != "trainerVersion" && key != "target") {
      error(path, true,
            "unknown option \"" + cut_long_runs(key) +
                "\": expected namespace, trainerVersion, target or generateSecrets");
      return;
    }
    if (!value.is_string()) {
      error(path, false, "expected a string (quote numbers: \"2.3\")");
      return;
    }
    const std::string& text = value.get_ref<const std::string&>();
    if (key == "namespace") {
      set_namespace(text, path);
    } else if (key == "trainerVersion") {
      set_trainer_version(text, path);
    } else {
      set_target(text, path);
    }
  }

 private:
  void read_bool(const Json& value, const std::string& path, bool from_strings, bool* out) {
    if (value.is_boolean()) {
      *out = value.get<bool>();
    } else if (from_strings && value.is_string() && (value == "true" || value == "false")) {
      *out = value == "true";
    } else {
      error(path, false,
            from_strings ? "expected \"true\" or \"false\"" : "expected true or false");
    }
  }

  void set_namespace(const std::string& text, const std::string& path) {
    // It becomes part of object names and of file names, like a TrainJob's own namespace.
    if (!text.empty() && !is_dns1123_label(text)) {
      error(path, false,
            "expected an RFC 1123 label (at most 63 lower-case letters, digits and '-'), found "
            "\"" +
                cut_long_runs(text) + "\"");
      return;
    }
    request_->compile.default_namespace = text;
  }

  void set_trainer_version(const std::string& text, const std::string& path) {
    if (text.empty()) return;
    request_->compile.dialect = parse_dialect(text);
    if (!request_->compile.dialect)
      error(path, false,
            "expected one of " + dialect_names() + ", found \"" + cut_long_runs(text) + "\"");
  }

  void set_target(const std::string& text, const std::string& path) {
    std::string names;
    for (const Target& target : kTargets) {
      if (text == target.name) {
        target.apply(request_);
        return;
      }
      names += std::string(names.empty() ? "" : ", ") + target.name;
    }
    error(path, false, "expected one of " + names + ", found \"" + cut_long_runs(text) + "\"");
  }

  const Document& document_;
  RenderRequest* request_;
  Diagnostics* diagnostics_;
};

bool is_config_map(const Json& config) {
  return string_member_ref(config, "apiVersion") == "v1" &&
         string_member_ref(config, "kind") == "ConfigMap";
}

}  // namespace

void read_krm_config(const Document& document, std::string_view path, RenderRequest* request,
                     Diagnostics* diagnostics) {
  const Json* config = &document.value;
  if (!path.empty()) config = &json_member(document.value, std::string(path).c_str());
  if (config->is_null()) return;
  ConfigReader reader(document, request, diagnostics);
  if (!config->is_object()) {
    reader.error(std::string(path), false, "expected a mapping (the function configuration)");
    return;
  }
  bool config_map = is_config_map(*config);
  for (const auto& [key, value] : config->items()) {
    std::string at = field_child(path, key);
    if (is_object_field(key)) continue;
    if (!config_map) {
      reader.read_option(key, value, at, false);
      continue;
    }
    if (key != "data") {
      reader.error(at, true,
                   "unknown field \"" + cut_long_runs(key) +
                       "\": a ConfigMap configuration holds its options under data");
      continue;
    }
    if (!value.is_object()) {
      if (!value.is_null())
        reader.error(at, false, "expected a mapping of option names to strings");
      continue;
    }
    for (const auto& [option, text] : value.items())
      reader.read_option(option, text, field_child(at, option), true);
  }
}

}  // namespace trainjob
