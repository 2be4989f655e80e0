#include "local/launch_cache.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace trainjob {
namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

/// The path a line of the file is about: its first field.
std::string line_path(const std::string& line) {
  return line.substr(0, line.find('\t'));
}

/// A problem on one line: tabs and newlines of a program's message made spaces.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return text;
}

}  // namespace

std::string cache_dir_from(const std::string& trainjob_cache, const std::string& xdg_cache_home,
                           const std::string& home) {
  if (!trainjob_cache.empty()) return trainjob_cache;
  if (!xdg_cache_home.empty()) return xdg_cache_home + "/kubectl-trainjob";
  return home.empty() ? "" : home + "/.cache/kubectl-trainjob";
}

std::string torchrun_trials_file() {
  std::string dir = cache_dir_from(env_or_empty("TRAINJOB_CACHE"), env_or_empty("XDG_CACHE_HOME"),
                                   env_or_empty("HOME"));
  return dir.empty() ? "" : dir + "/torchrun-trials";
}

std::string file_identity(const std::string& path) {
  struct stat info {};
  if (path.empty() || ::stat(path.c_str(), &info) != 0) return "";
  long long nanoseconds = static_cast<long long>(info.st_mtim.tv_sec) * 1000000000LL +
                          static_cast<long long>(info.st_mtim.tv_nsec);
  return path + "\t" + std::to_string(nanoseconds) + "\t" +
         std::to_string(static_cast<long long>(info.st_size));
}

std::optional<std::string> remembered_failure(const std::string& file,
                                              const std::string& identity) {
  if (file.empty() || identity.empty()) return std::nullopt;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.size() > identity.size() && line.compare(0, identity.size(), identity) == 0 &&
        line[identity.size()] == '\t')
      return line.substr(identity.size() + 1);
  return std::nullopt;
}

bool remember_failure(const std::string& file, const std::string& identity,
                      const std::string& problem) {
  if (file.empty() || identity.empty()) return false;
  std::vector<std::string> kept;
  {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line))
      if (line_path(line) != line_path(identity)) kept.push_back(line);
  }
  kept.push_back(identity + "\t" + one_line(problem));
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  std::string temp = file + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::trunc);
    for (const std::string& line : kept)
      out << line << '\n';
    if (!out.flush()) {
      std::filesystem::remove(temp, ec);
      return false;
    }
  }
  std::filesystem::rename(temp, file, ec);
  if (!ec) return true;
  std::filesystem::remove(temp, ec);
  return false;
}

}  // namespace trainjob
