#include <algorithm>

#include "local/plan/local_plan.h"

namespace trainjob {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

using Replacements = std::vector<std::pair<std::string, std::string>>;

/// Replaces each `from` that the predicates accept at its ends; the longest match wins
/// where several start at the same place.
template <typename BeforeOk, typename AfterOk>
std::string replace_standalone(const std::string& text, Replacements replacements,
                               BeforeOk before_ok, AfterOk after_ok) {
  std::sort(replacements.begin(), replacements.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    bool replaced = false;
    if (i == 0 || before_ok(text[i - 1])) {
      for (const auto& [from, to] : replacements) {
        size_t end = i + from.size();
        if (from.empty() || text.compare(i, from.size(), from) != 0) continue;
        if (end < text.size() && !after_ok(text[end])) continue;
        out += to;
        i = end;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

}  // namespace

std::string rewrite_paths(const std::string& text, const std::vector<LocalMount>& mounts) {
  Replacements replacements;
  for (const LocalMount& mount : mounts) {
    std::string from = mount.mount_path;
    while (from.size() > 1 && from.back() == '/')
      from.pop_back();
    replacements.emplace_back(from, mount.host_path);
  }
  // `/workspace` in `x=/workspace/a.py`, not in `/data/workspace` or `/workspace2`.
  return replace_standalone(
      text, replacements, [](char c) { return !is_name_char(c) && c != '/'; },
      [](char c) { return !is_name_char(c); });
}

std::string rewrite_hosts(const std::string& text, const std::vector<std::string>& hosts,
                          const std::string& ip) {
  Replacements replacements;
  for (const std::string& host : hosts)
    replacements.emplace_back(host, ip);
  return replace_standalone(
      text, replacements, [](char c) { return !is_name_char(c); },
      [](char c) { return !is_name_char(c); });
}

std::string rewrite_addresses(const std::string& text,
                              const std::vector<std::pair<std::string, std::string>>& addresses) {
  // `h-worker-0:2222` in `["h-worker-0:2222",...]`, not in `xh-worker-0:22220`.
  return replace_standalone(
      text, addresses, [](char c) { return !is_name_char(c); },
      [](char c) { return !is_name_char(c); });
}

std::string image_repository(const std::string& image) {
  std::string name = image.substr(0, image.find('@'));
  size_t slash = name.rfind('/');
  size_t colon = name.rfind(':');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    name.resize(colon);
  }
  return name;
}

}  // namespace trainjob
