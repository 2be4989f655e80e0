#include "output/spilled_stream.h"

#include <cerrno>
#include <cstring>
#include <vector>

#include "output/yaml_writer.h"
#include "util/temp_file.h"

namespace trainjob {
namespace {

/// A `v1` `List` holding only `item`, as format_objects prints it; the text of a List
/// of many is the part before the item, the items' parts joined by ",\n", and the part
/// after it, so the List is written an item at a time with the same bytes.
std::string json_list_of(Json item) {
  Json list = {{"apiVersion", "v1"}, {"items", Json::array()}, {"kind", "List"}};
  list["items"].push_back(std::move(item));
  return list.dump(4) + "\n";
}

/// The text of a one-item List before its item (`prefix`), and after it (`suffix`).
void json_list_frame(std::string* prefix, std::string* suffix) {
  std::string marker = json_list_of(Json("\x01"));
  size_t at = marker.find("\"\\u0001\"");
  size_t line = marker.rfind('\n', at) + 1;
  *prefix = marker.substr(0, line);
  *suffix = marker.substr(marker.find('\n', at));
}

/// The text of `object` as an item of the List: its lines, indented as in json_list_of.
std::string json_item_text(const Json& object) {
  static const size_t kFrame = [] {
    std::string prefix;
    std::string suffix;
    json_list_frame(&prefix, &suffix);
    return prefix.size() + suffix.size();
  }();
  static const size_t kPrefix = [] {
    std::string prefix;
    std::string suffix;
    json_list_frame(&prefix, &suffix);
    return prefix.size();
  }();
  std::string text = json_list_of(object);
  return text.substr(kPrefix, text.size() - kFrame);
}

}  // namespace

SpilledStream::SpilledStream(OutputFormat format) : format_(format) {}

SpilledStream::~SpilledStream() {
  if (spill_ != nullptr) std::fclose(spill_);
}

bool SpilledStream::write(const std::string& text, Diagnostics* diagnostics) {
  if (failed_) return false;
  std::string error;
  if (spill_ == nullptr) spill_ = open_temp_file(&error);
  if (spill_ != nullptr && std::fwrite(text.data(), 1, text.size(), spill_) != text.size())
    error = temp_write_error();
  if (!error.empty()) {
    failed_ = true;
    diagnostics->error("", {}, "", "cannot keep the output until it is complete: " + error);
    return false;
  }
  return true;
}

void SpilledStream::add(const RenderedUnit& unit, Diagnostics* diagnostics) {
  std::string text;
  for (const Json& object : unit.objects) {
    if (format_ == OutputFormat::kYaml) {
      if (objects_ > 0) text += "---\n";
      write_yaml(object, &text);
    } else {
      if (objects_ > 0) text += ",\n";
      text += json_item_text(object);
    }
    ++objects_;
  }
  if (!text.empty()) write(text, diagnostics);
}

bool SpilledStream::copy_to(std::FILE* out, Diagnostics* diagnostics) {
  if (failed_) return false;
  if (spill_ != nullptr && std::fflush(spill_) != 0) {
    diagnostics->error("", {}, "",
                       "cannot keep the output until it is complete: " + temp_write_error());
    return false;
  }
  std::string prefix;
  std::string suffix;
  if (format_ == OutputFormat::kJson) {
    if (objects_ == 0)
      prefix = format_objects({}, format_);
    else
      json_list_frame(&prefix, &suffix);
  }
  bool ok = std::fwrite(prefix.data(), 1, prefix.size(), out) == prefix.size();
  if (spill_ != nullptr) {
    std::rewind(spill_);
    std::vector<char> buffer(1 << 16);
    for (size_t n; ok && (n = std::fread(buffer.data(), 1, buffer.size(), spill_)) > 0;)
      ok = std::fwrite(buffer.data(), 1, n, out) == n;
    ok = ok && std::ferror(spill_) == 0;
  }
  ok = ok && std::fwrite(suffix.data(), 1, suffix.size(), out) == suffix.size();
  return std::fflush(out) == 0 && ok;
}

}  // namespace trainjob
