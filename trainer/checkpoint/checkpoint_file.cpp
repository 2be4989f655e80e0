#include "checkpoint/checkpoint_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace trainjob::trainer {
namespace {

constexpr const char* kPrefix = "checkpoint-";
constexpr const char* kSuffix = ".pt";

bool write_all(int fd, const std::string& bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

bool sync_directory(const std::string& dir) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = fsync(fd) == 0;
  close(fd);
  return ok;
}

}  // namespace

std::string checkpoint_file_name(int epoch) {
  char name[64];
  std::snprintf(name, sizeof name, "%s%06d%s", kPrefix, epoch, kSuffix);
  return name;
}

bool write_file_atomically(const std::string& dir, const std::string& name,
                           const std::string& bytes, std::string* error) {
  std::error_code fs_error;
  fs::create_directories(dir, fs_error);
  if (fs_error) {
    *error = dir + ": cannot create: " + fs_error.message();
    return false;
  }
  const std::string final_path = (fs::path(dir) / name).string();
  const std::string temp_path = final_path + ".tmp." + std::to_string(getpid());
  int fd = open(temp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = temp_path + ": cannot create: " + std::strerror(errno);
    return false;
  }
  bool ok = write_all(fd, bytes) && fsync(fd) == 0;
  const int write_errno = errno;
  ok = close(fd) == 0 && ok;
  if (!ok) {
    *error = temp_path + ": cannot write: " + std::strerror(write_errno);
    unlink(temp_path.c_str());
    return false;
  }
  if (rename(temp_path.c_str(), final_path.c_str()) != 0) {
    *error = final_path + ": cannot rename into place: " + std::strerror(errno);
    unlink(temp_path.c_str());
    return false;
  }
  if (!sync_directory(dir)) {
    *error = dir + ": cannot sync: " + std::strerror(errno);
    return false;
  }
  return true;
}

std::vector<CheckpointEntry> list_checkpoints(const std::string& dir) {
  std::vector<CheckpointEntry> entries;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    const size_t prefix = std::strlen(kPrefix);
    const size_t suffix = std::strlen(kSuffix);
    if (name.size() <= prefix + suffix || name.rfind(kPrefix, 0) != 0 ||
        name.compare(name.size() - suffix, suffix, kSuffix) != 0) {
      continue;
    }
    const std::string digits = name.substr(prefix, name.size() - prefix - suffix);
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    entries.push_back({std::stoi(digits), entry.path().string()});
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.epoch > b.epoch; });
  return entries;
}

bool read_whole_file(const std::string& path, std::string* bytes, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  *bytes = text.str();
  return true;
}

}  // namespace trainjob::trainer
