#include "output/output_manifest.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/beneath.h"
#include "util/text.h"

namespace trainjob {
namespace {

constexpr size_t kHexDigits = 64;
constexpr const char* kSeparator = "  ";  // sha256sum's text mode
/// The manifest and the files it lists are read whole; none of ours comes near this.
constexpr off_t kMaxReadBytes = off_t{1} << 30;

bool is_hex(std::string_view text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::string format_manifest(const Manifest& manifest) {
  std::string out;
  for (const auto& [name, hash] : manifest) {
    out += hash;
    out += kSeparator;
    out += name;
    out += '\n';
  }
  return out;
}

Manifest parse_manifest(std::string_view text, const std::string& path, Diagnostics* diagnostics) {
  Manifest manifest;
  int line_number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    std::string_view hash = line.substr(0, kHexDigits);
    std::string name(line.size() > kHexDigits + 2 ? line.substr(kHexDigits + 2) : "");
    bool ok = hash.size() == kHexDigits && is_hex(hash) &&
              line.substr(kHexDigits, 2) == kSeparator && beneath_path_problem(name).empty() &&
              name.find('/') == std::string::npos && is_output_name(name);
    if (!ok) {
      diagnostics->warning(path, {line_number, 1}, "",
                           "expected '<sha256>  <name>.yaml|json'; this line is ignored and the "
                           "file it names is never pruned");
      continue;
    }
    manifest[name] = std::string(hash);
  }
  return manifest;
}

EntryKind read_entry(int dir_fd, const std::string& name, std::string* contents) {
  struct stat info {};
  if (::fstatat(dir_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? EntryKind::kMissing : EntryKind::kOther;
  if (!S_ISREG(info.st_mode) || info.st_size > kMaxReadBytes) return EntryKind::kOther;
  int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return EntryKind::kOther;
  contents->clear();
  char buffer[65536];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
    contents->append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return n == 0 ? EntryKind::kFile : EntryKind::kOther;
}

ManifestReview review_manifest(int dir_fd, const std::string& dir, const OutputFiles& files,
                               Diagnostics* diagnostics) {
  ManifestReview review;
  std::string text;
  if (read_entry(dir_fd, kManifestName, &text) != EntryKind::kFile) return review;
  Manifest listed = parse_manifest(text, dir + "/" + kManifestName, diagnostics);
  for (const auto& [name, hash] : listed) {
    std::string contents;
    if (read_entry(dir_fd, name, &contents) != EntryKind::kFile) continue;  // gone: not ours
    if (sha256_hex(contents) != hash) {
      if (files.count(name) == 0) review.edited.push_back(name);
      continue;
    }
    review.current[name] = hash;
    if (files.count(name) == 0) review.stale.push_back(name);
  }
  return review;
}

bool is_output_name(std::string_view name) {
  return ends_with(name, ".yaml") || ends_with(name, ".json");
}

}  // namespace trainjob
