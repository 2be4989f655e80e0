#include "init/init_script.h"

#include <fstream>
#include <sstream>

#include "embed/embedded.h"
#include "load/file_system.h"
#include "pipeline/render_pipeline.h"

namespace trainjob {

namespace {

/// Where a line of Python ends up: inside a triple-quoted string or not. Enough of Python's
/// lexer for that: comments, one-line strings with their escapes, triple quotes.
class PythonStrings {
 public:
  /// Reads one line (without its newline); true when it ends inside a triple-quoted string.
  bool line_ends_in_string(std::string_view line) {
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (!triple_.empty()) {
        if (c == '\\') {
          ++i;
        } else if (line.compare(i, 3, triple_) == 0) {
          triple_.clear();
          i += 2;
        }
      } else if (c == '#') {
        break;
      } else if (c == '"' || c == '\'') {
        if (line.compare(i, 3, std::string(3, c)) == 0) {
          triple_.assign(3, c);
          i += 2;
          continue;
        }
        for (++i; i < line.size() && line[i] != c; ++i)
          if (line[i] == '\\') ++i;
      }
    }
    return !triple_.empty();
  }

 private:
  std::string triple_;  ///< the open string's quotes, empty outside one
};

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

}  // namespace

std::string python_without_trailing_blanks(const std::string& script, size_t* lines,
                                           std::vector<size_t>* kept) {
  *lines = 0;
  kept->clear();
  size_t number = 0;
  PythonStrings strings;
  std::string out;
  size_t start = 0;
  while (start < script.size()) {
    size_t end = script.find('\n', start);
    size_t stop = end == std::string::npos ? script.size() : end;
    std::string_view line(script.data() + start, stop - start);
    ++number;
    size_t length = line.size();
    while (length > 0 && is_blank(line[length - 1]))
      --length;
    if (length < line.size()) {
      // Blanks inside a string are content: a line that ends inside one keeps them.
      bool in_string = strings.line_ends_in_string(line);
      if (in_string) {
        kept->push_back(number);
        length = line.size();
      } else {
        ++*lines;
      }
    } else {
      strings.line_ends_in_string(line);
    }
    out.append(line.substr(0, length));
    if (end != std::string::npos) out += '\n';
    start = stop + 1;
  }
  return out;
}

bool add_init_script(const std::string& path, InitOptions* options, std::string* error,
                     std::string* note) {
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
  note->clear();
  if (name.size() < 3 || name.compare(name.size() - 3, 3, ".py") != 0) return true;
  size_t lines = 0;
  std::vector<size_t> kept;
  options->script_text = python_without_trailing_blanks(*options->script_text, &lines, &kept);
  if (lines > 0) {
    *note = "--script " + path + ": the trailing blanks of " + std::to_string(lines) +
            (lines == 1 ? " line were" : " lines were") +
            " left out of the ConfigMap (Python ignores them; the file is unchanged)" +
            (kept.empty() ? ", so that it shows the script as a block to edit" : "");
  }
  if (!kept.empty()) {
    std::string numbers;
    for (size_t number : kept)
      numbers += (numbers.empty() ? "" : ", ") + std::to_string(number);
    *note += std::string(note->empty() ? "" : "\nnote: ") + "--script " + path +
             (kept.size() == 1 ? ": line " + numbers + " ends" : ": lines " + numbers + " end") +
             " in blanks inside a multi-line string, where they are content, so the ConfigMap "
             "holds the script as one quoted line; remove them from the file to get a block";
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
