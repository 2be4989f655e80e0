#include "load/input_files.h"

#include <cstdio>
#include <utility>

#include "load/yaml_loader.h"
#include "util/text.h"

namespace trainjob {
namespace {

std::string join_path(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

/// Adds the inputs below `directory` to `out`: its manifest files by name, and with
/// `recursive` those of its subdirectories in place.
void expand_directory(const std::string& directory, const InputOptions& options,
                      const FileSystem& fs, Diagnostics* diagnostics, std::vector<std::string>* out,
                      std::vector<std::string>* skipped) {
  std::vector<std::string> names;
  std::string error;
  if (!fs.list_directory(directory, &names, &error)) {
    diagnostics->error(directory, {}, "", "cannot read directory: " + error);
    return;
  }
  for (const std::string& name : names) {
    std::string child = join_path(directory, name);
    FileSystem::Kind kind = fs.stat(child);
    bool is_dir = kind == FileSystem::Kind::kDirectory;
    bool wanted =
        is_dir ? options.recursive : kind == FileSystem::Kind::kFile && is_manifest_file_name(name);
    if (!wanted) continue;
    std::string reason = skipped_entry_reason(name, is_dir);
    if (!reason.empty()) {
      skipped->push_back(child + (is_dir ? "/" : "") + " (" + reason + ")");
    } else if (is_dir) {
      expand_directory(child, options, fs, diagnostics, out, skipped);
    } else {
      out->push_back(child);
    }
  }
}

/// Parses `text` into `out`, keeping it in `texts` (when given) for the report's source lines.
void load_text(const std::string& name, std::string text, Diagnostics* diagnostics,
               std::vector<Document>* out, SourceTexts* texts) {
  const std::string& kept = texts != nullptr ? ((*texts)[name] = std::move(text)) : text;
  for (Document& document : load_documents(name, kept, diagnostics))
    out->push_back(std::move(document));
}

}  // namespace

bool is_manifest_file_name(const std::string& name) {
  return ends_with(name, ".yaml") || ends_with(name, ".yml") || ends_with(name, ".json");
}

std::string skipped_entry_reason(const std::string& name, bool directory) {
  if (!name.empty() && name[0] == '.') return directory ? "a hidden directory" : "a hidden file";
  if (!directory &&
      (name == "kustomization.yaml" || name == "kustomization.yml" || name == "Kustomization")) {
    return "kustomize's own file, not an object: `kustomize build` reads it";
  }
  return "";
}

std::vector<std::string> expand_input_paths(const InputOptions& options, const FileSystem& fs,
                                            Diagnostics* diagnostics) {
  std::vector<std::string> out;
  std::vector<std::string> skipped;
  for (const std::string& path : options.paths) {
    if (path == "-") {
      out.push_back(path);
      continue;
    }
    switch (fs.stat(path)) {
      case FileSystem::Kind::kMissing:
        diagnostics->error(path, {}, "", "no such file or directory");
        break;
      case FileSystem::Kind::kDirectory:
        expand_directory(path, options, fs, diagnostics, &out, &skipped);
        break;
      case FileSystem::Kind::kFile:
        out.push_back(path);
        break;
    }
  }
  if (!skipped.empty()) {
    std::string line = "note: skipped";
    for (size_t i = 0; i < skipped.size(); ++i)
      line += (i == 0 ? " " : ", ") + skipped[i];
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  return out;
}

std::vector<Document> load_inputs(const InputOptions& options, const FileSystem& fs,
                                  const StdinReader& read_stdin, Diagnostics* diagnostics,
                                  SourceTexts* texts) {
  std::vector<Document> out;
  for (const std::string& path : expand_input_paths(options, fs, diagnostics)) {
    if (path == "-") {
      load_text("STDIN", read_stdin(), diagnostics, &out, texts);
      continue;
    }
    std::string text;
    std::string error;
    if (!fs.read_file(path, &text, &error)) {
      diagnostics->error(path, {}, "", "cannot read file: " + error);
      continue;
    }
    load_text(path, std::move(text), diagnostics, &out, texts);
  }
  return out;
}

}  // namespace trainjob
