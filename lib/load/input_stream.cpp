#include "load/input_stream.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <utility>

#include "load/yaml_loader.h"
#include "util/temp_file.h"

namespace trainjob {
namespace {

/// JSON and streams with directives (`%YAML`) are parsed whole: a JSON text has no
/// document boundaries, and a directive belongs to the document after the next `---`.
bool starts_json_or_directive(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[0] == '%');
}

/// Where the last complete `---` line of `text` starts (0 when there is none after the
/// first byte): the pieces before it parse on their own, as in split_stream.
size_t last_boundary(std::string_view text) {
  for (size_t at = text.rfind("\n---"); at != std::string_view::npos && at > 0;
       at = text.rfind("\n---", at - 1)) {
    if (at + 4 >= text.size()) continue;  // what follows is not read yet
    char after = text[at + 4];
    if (after == '\n' || after == ' ' || after == '\t' || after == '\r') return at + 1;
  }
  return 0;
}

/// Reads up to `size` bytes at the end of `buffer`; false on a read error.
bool read_more(std::FILE* in, size_t size, std::string* buffer, bool* eof) {
  size_t old = buffer->size();
  buffer->resize(old + size);
  size_t got = std::fread(&(*buffer)[old], 1, size, in);
  buffer->resize(old + got);
  if (got < size) *eof = true;
  return std::ferror(in) == 0;
}

/// An input that cannot be read twice (standard input, a pipe) is copied as it is first
/// read, into a temporary file that goes away with the process. Standard input is always
/// copied: even a file there may be shared with a parent that reads on after us.
bool is_regular(std::FILE* file) {
  struct stat info {};
  return ::fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode);
}

}  // namespace

InputStream::InputStream(InputOptions options, const FileSystem& fs, std::FILE* stdin_file)
    : options_(std::move(options)), fs_(fs), stdin_(stdin_file) {}

InputStream::~InputStream() {
  for (auto& [name, copy] : copies_)
    std::fclose(copy);
}

void InputStream::read(const PieceHandler& on_piece, Diagnostics* diagnostics) {
  bool first_run = !expanded_;
  if (first_run) {
    for (const std::string& path : expand_input_paths(options_, fs_, diagnostics)) {
      inputs_.push_back(path == "-" ? Input{"STDIN", ""} : Input{path, path});
    }
    expanded_ = true;
  }
  Diagnostics repeated;  // what a later run finds again
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (failed_.count(inputs_[i].name) > 0) continue;
    read_input(i, first_run, on_piece, first_run ? diagnostics : &repeated);
  }
}

void InputStream::read_input(size_t index, bool first_run, const PieceHandler& on_piece,
                             Diagnostics* diagnostics) {
  const Input& input = inputs_[index];
  auto copy = copies_.find(index);
  std::FILE* in = nullptr;
  if (copy != copies_.end()) {
    in = copy->second;
    std::rewind(in);
  } else if (input.path.empty()) {
    in = stdin_;
  } else {
    in = std::fopen(input.path.c_str(), "rb");
    if (in == nullptr) {
      diagnostics->error(input.name, {}, "",
                         std::string("cannot read file: ") + std::strerror(errno));
      failed_.insert(input.name);
      return;
    }
  }
  std::FILE* keep = nullptr;  // where a first run copies an input that cannot be read twice
  if (first_run && (in == stdin_ || !is_regular(in))) {
    std::string error;
    keep = open_temp_file(&error);
    if (keep == nullptr) {
      diagnostics->error(input.name, {}, "", "cannot keep a copy of the input: " + error);
      failed_.insert(input.name);
    } else {
      copies_[index] = keep;
    }
  }
  if (first_run) read_.push_back(input.name);
  if (failed_.count(input.name) == 0 && !read_pieces(input.name, in, keep, on_piece, diagnostics)) {
    failed_.insert(input.name);
  }
  if (in != stdin_ && copy == copies_.end()) std::fclose(in);
}

bool InputStream::read_pieces(const std::string& name, std::FILE* in, std::FILE* keep,
                              const PieceHandler& on_piece, Diagnostics* diagnostics) {
  StreamPosition at;
  std::string pending;
  bool whole = false;  // no more cuts: the rest is one piece
  bool eof = false;
  for (;;) {
    size_t old = pending.size();
    if (!eof && !read_more(in, kStreamPieceBytes, &pending, &eof)) {
      diagnostics->error(name, {}, "", std::string("cannot read file: ") + std::strerror(errno));
      return false;
    }
    size_t added = pending.size() - old;
    if (keep != nullptr && added > 0 && std::fwrite(&pending[old], 1, added, keep) != added) {
      diagnostics->error(name, {}, "", "cannot keep a copy of the input: " + temp_write_error());
      return false;
    }
    if (at.line == 0 && old == 0) whole = starts_json_or_directive(pending);
    if (pending.find("\n%", old > 0 ? old - 1 : 0) != std::string::npos) whole = true;
    size_t cut = pending.size();
    if (!eof) {
      if (whole) continue;
      cut = last_boundary(pending);
      if (cut == 0) continue;  // one document longer than a piece: read on
    }
    Diagnostics found;
    std::vector<Document> documents =
        load_stream_piece(name, std::string_view(pending.data(), cut), &at, &found);
    for (const Diagnostic& finding : found.all())
      diagnostics->add(finding);
    if (found.has_errors()) return false;
    pending.erase(0, cut);
    on_piece(name, std::move(documents));
    if (eof) break;
  }
  if (keep != nullptr && std::fflush(keep) != 0) {
    diagnostics->error(name, {}, "", "cannot keep a copy of the input: " + temp_write_error());
    return false;
  }
  return true;
}

}  // namespace trainjob
