#include "output/render_output.h"

#include <cctype>
#include <map>

#include "model/vocabulary.h"
#include "output/output_check.h"
#include "output/output_dir.h"
#include "output/yaml_writer.h"
#include "util/text.h"

namespace trainjob {
namespace {

std::string format_yaml(const std::vector<const Json*>& objects) {
  std::string out;
  for (size_t i = 0; i < objects.size(); ++i) {
    if (i > 0) out += "---\n";
    write_yaml(*objects[i], &out);
  }
  return out;
}

std::string format_json(const std::vector<const Json*>& objects) {
  Json list = {{"apiVersion", "v1"}, {"items", Json::array()}, {"kind", "List"}};
  for (const Json* object : objects)
    list["items"].push_back(*object);
  return list.dump(4) + "\n";
}

/// `dir` without trailing slashes, so that messages name `rendered/x.yaml`, not
/// `rendered//x.yaml`, however the user spelled it.
std::string trim_slashes(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  return dir;
}

}  // namespace

std::optional<OutputFormat> parse_output_format(std::string_view text) {
  if (text == "yaml") return OutputFormat::kYaml;
  if (text == "json") return OutputFormat::kJson;
  return std::nullopt;
}

std::string format_objects(const std::vector<const Json*>& objects, OutputFormat format) {
  return format == OutputFormat::kYaml ? format_yaml(objects) : format_json(objects);
}

std::string output_file_name(const RenderedUnit& unit, OutputFormat format) {
  const Document& source = *unit.source;
  std::string name =
      unit.compiled ? source.name() : ascii_lower(source.kind()) + "-" + source.name();
  std::string name_space = source.name_space();
  if (!name_space.empty()) name = name_space + "." + name;
  return name + (format == OutputFormat::kYaml ? ".yaml" : ".json");
}

OutputDirFiles::OutputDirFiles(OutputFormat format) : format_(format) {}

void OutputDirFiles::add(const RenderedUnit& unit, Diagnostics* diagnostics) {
  std::string name = output_file_name(unit, format_);
  auto [it, added] = sources_.emplace(name, unit.source->file);
  if (!added) {
    diagnostics->error(unit.source->file, unit.source->pos_of(""), "",
                       "would be written to " + name + ", like the object from " + it->second +
                           "; give them different names");
    return;
  }
  std::vector<const Json*> objects;
  for (const Json& object : unit.objects)
    objects.push_back(&object);
  files_[name] = format_objects(objects, format_);
}

bool write_output_dir(const OutputFiles& files, const std::string& dir,
                      const OutputDirOptions& options, Diagnostics* diagnostics) {
  return write_output_files(trim_slashes(dir), files, options, diagnostics);
}

bool check_output_dir(const OutputFiles& files, const std::string& dir, std::string* diffs,
                      Diagnostics* diagnostics) {
  return check_output_files(trim_slashes(dir), files, diffs, diagnostics);
}

std::vector<std::string> private_key_secrets(const RenderedUnit& unit) {
  std::vector<std::string> names;
  if (!unit.compiled) return names;
  for (const Json& object : unit.objects) {
    const Json& metadata = object.value("metadata", Json::object());
    if (metadata.value("annotations", Json::object()).contains(kCreateOnlyIfAbsentAnnotation))
      names.push_back(string_member(metadata, "name"));
  }
  return names;
}

}  // namespace trainjob
