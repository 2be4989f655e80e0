#include "load/input_files.h"

#include <utility>

#include "load/yaml_loader.h"

namespace trainjob {
namespace {

bool ends_with(const std::string& text, const char* suffix) {
  std::string s(suffix);
  return text.size() >= s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0;
}

std::string join_path(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

class InputLoader {
 public:
  InputLoader(const FileSystem& fs, bool recursive, Diagnostics* diagnostics,
              std::vector<Document>* out, SourceTexts* texts)
      : fs_(fs), recursive_(recursive), diagnostics_(diagnostics), out_(out), texts_(texts) {}

  void load_text(const std::string& name, std::string text) {
    // Kept for the report's source lines; parsed where it is kept.
    const std::string& kept = texts_ != nullptr ? ((*texts_)[name] = std::move(text)) : text;
    for (Document& document : load_documents(name, kept, diagnostics_)) {
      out_->push_back(std::move(document));
    }
  }

  void load_file(const std::string& path) {
    std::string text;
    std::string error;
    if (!fs_.read_file(path, &text, &error)) {
      diagnostics_->error(path, {}, "", "cannot read file: " + error);
      return;
    }
    load_text(path, std::move(text));
  }

  void load_directory(const std::string& path) {
    std::vector<std::string> names;
    std::string error;
    if (!fs_.list_directory(path, &names, &error)) {
      diagnostics_->error(path, {}, "", "cannot read directory: " + error);
      return;
    }
    for (const std::string& name : names) {
      std::string child = join_path(path, name);
      FileSystem::Kind kind = fs_.stat(child);
      if (kind == FileSystem::Kind::kDirectory) {
        if (recursive_) load_directory(child);
      } else if (kind == FileSystem::Kind::kFile && is_manifest_file_name(name)) {
        load_file(child);
      }
    }
  }

 private:
  const FileSystem& fs_;
  bool recursive_;
  Diagnostics* diagnostics_;
  std::vector<Document>* out_;
  SourceTexts* texts_;
};

}  // namespace

bool is_manifest_file_name(const std::string& name) {
  return ends_with(name, ".yaml") || ends_with(name, ".yml") || ends_with(name, ".json");
}

std::vector<Document> load_inputs(const InputOptions& options, const FileSystem& fs,
                                  const StdinReader& read_stdin, Diagnostics* diagnostics,
                                  SourceTexts* texts) {
  std::vector<Document> out;
  InputLoader loader(fs, options.recursive, diagnostics, &out, texts);
  for (const std::string& path : options.paths) {
    if (path == "-") {
      loader.load_text("STDIN", read_stdin());
      continue;
    }
    switch (fs.stat(path)) {
      case FileSystem::Kind::kMissing:
        diagnostics->error(path, {}, "", "no such file or directory");
        break;
      case FileSystem::Kind::kDirectory:
        loader.load_directory(path);
        break;
      case FileSystem::Kind::kFile:
        loader.load_file(path);
        break;
    }
  }
  return out;
}

}  // namespace trainjob
