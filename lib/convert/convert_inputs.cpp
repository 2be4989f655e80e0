#include "convert/convert_inputs.h"

#include <map>
#include <vector>

#include "convert/convert_dialect.h"
#include "convert/convert_legacy.h"
#include "convert/convert_v2alpha1.h"
#include "convert/yaml_edit.h"
#include "legacy/api_match.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"
#include "output/yaml_writer.h"

namespace trainjob {
namespace {

/// What one input document becomes: one or more documents, or itself (`changed` false).
struct Converted {
  bool changed = false;
  std::vector<Json> values;
};

Converted convert_document(const ConvertRequest& request, const Document& document,
                           Diagnostics* diagnostics) {
  Converted out;
  const std::string& kind = document.kind();
  bool trainer_api = document.api_version().rfind(kTrainerGroupPrefix, 0) == 0;
  if (is_v2alpha1_document(document)) {  // no release serves it: it moves whatever --to says
    out.values.push_back(
        convert_v2alpha1(document, request.release.value_or(kDefaultDialect), diagnostics));
    out.changed = true;
    return out;
  }
  if (!check_api_kind(document, diagnostics)) return out;
  if (is_convertible_legacy_job(document)) {
    LegacyConvertOptions options{request.release.value_or(kDefaultDialect), request.runtime_name,
                                 request.with_runtime};
    out.values = convert_legacy_job(document, options, diagnostics);
    out.changed = true;
    return out;
  }
  if (!trainer_api || !request.release) return out;
  Json value;
  if (kind == kTrainJob) {
    value = convert_trainjob_dialect(document, *request.release, diagnostics);
  } else if (kind == kTrainingRuntime || kind == kClusterTrainingRuntime) {
    value = convert_runtime_dialect(document, *request.release, diagnostics);
  } else {
    return out;
  }
  out.changed = value != document.value;
  out.values.push_back(std::move(value));
  return out;
}

/// A piece of a file between `---` lines: [begin, end) in its lines, and its documents.
struct Chunk {
  int begin = 0;
  int end = 0;
  std::vector<size_t> documents;  ///< indices into the documents of the whole input
};

bool starts_document(std::string_view line) {
  return line.substr(0, 3) == "---" && (line.size() == 3 || line[3] == ' ' || line[3] == '\r');
}

std::vector<Chunk> chunks_of(const std::vector<std::string_view>& lines) {
  std::vector<Chunk> chunks(1);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (starts_document(lines[i]) && i > 0) {
      chunks.back().end = static_cast<int>(i);
      chunks.push_back({static_cast<int>(i), 0, {}});
    }
  }
  chunks.back().end = static_cast<int>(lines.size());
  return chunks;
}

void copy_lines(const std::vector<std::string_view>& lines, int begin, int end, std::string* out) {
  for (int i = begin; i < end; ++i) {
    out->append(lines[static_cast<size_t>(i)]);
    out->push_back('\n');
  }
}

/// The YAML of one converted piece: edited in place where it can be, else emitted whole.
void write_chunk(const Chunk& chunk, const std::vector<std::string_view>& lines,
                 const std::vector<Document>& documents, const std::vector<Converted>& converted,
                 std::string* out) {
  bool changed = false;
  for (size_t index : chunk.documents)
    changed = changed || converted[index].changed;
  if (!changed) {
    copy_lines(lines, chunk.begin, chunk.end, out);
    return;
  }
  if (chunk.documents.size() == 1 && converted[chunk.documents[0]].values.size() == 1) {
    size_t index = chunk.documents[0];
    std::vector<std::string_view> piece(lines.begin() + chunk.begin, lines.begin() + chunk.end);
    if (edit_yaml_document(documents[index], piece, chunk.begin + 1, converted[index].values[0],
                           out)) {
      return;
    }
  }
  bool first = true;
  for (size_t index : chunk.documents) {
    for (const Json& value : converted[index].values) {
      if (!first || starts_document(lines[static_cast<size_t>(chunk.begin)])) *out += "---\n";
      write_yaml(value, out);
      first = false;
    }
  }
}

/// One input's text with its converted documents, in YAML.
void write_file(const std::string& text, const std::vector<size_t>& indices,
                const std::vector<Document>& documents, const std::vector<Converted>& converted,
                std::string* out) {
  std::vector<std::string_view> lines = split_lines(text);
  std::vector<Chunk> chunks = chunks_of(lines);
  for (size_t index : indices) {
    int line = documents[index].pos_of("").line - 1;
    for (Chunk& chunk : chunks) {
      if (line >= chunk.begin && line < chunk.end) {
        chunk.documents.push_back(index);
        break;
      }
    }
  }
  if (!out->empty() && !(lines.empty() || starts_document(lines[0]))) *out += "---\n";
  for (const Chunk& chunk : chunks)
    write_chunk(chunk, lines, documents, converted, out);
}

}  // namespace

std::string convert_inputs(const ConvertRequest& request, const FileSystem& fs,
                           const StdinReader& read_stdin, Diagnostics* diagnostics) {
  SourceTexts texts;
  std::vector<Document> documents =
      load_inputs(request.inputs, fs, read_stdin, diagnostics, &texts);
  if (diagnostics->has_errors()) return "";
  std::vector<Converted> converted;
  converted.reserve(documents.size());
  for (const Document& document : documents)
    converted.push_back(convert_document(request, document, diagnostics));
  if (diagnostics->has_errors()) return "";
  if (request.format == OutputFormat::kJson) {
    std::vector<const Json*> objects;
    for (size_t i = 0; i < documents.size(); ++i) {
      if (!converted[i].changed) objects.push_back(&documents[i].value);
      for (const Json& value : converted[i].values)
        if (converted[i].changed) objects.push_back(&value);
    }
    return format_objects(objects, OutputFormat::kJson);
  }
  // Documents by file, files in the order they were read.
  std::vector<std::string> files;
  std::map<std::string, std::vector<size_t>> by_file;
  for (size_t i = 0; i < documents.size(); ++i) {
    auto [it, added] = by_file.try_emplace(documents[i].file);
    if (added) files.push_back(documents[i].file);
    it->second.push_back(i);
  }
  std::string out;
  for (const std::string& file : files)
    write_file(texts[file], by_file[file], documents, converted, &out);
  return out;
}

}  // namespace trainjob
