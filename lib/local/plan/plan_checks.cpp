#include "local/plan/plan_checks.h"

#include <cstdio>
#include <filesystem>
#include <limits>

#include "util/beneath.h"

namespace trainjob {
namespace {

/// Longest value shown whole in a message; longer ones are cut to this prefix.
constexpr size_t kShownChars = 64;

/// Host directories a pod could damage the machine through, or read its secrets from.
/// `/` is refused only as itself; each of these also with everything beneath it.
constexpr const char* kSystemDirs[] = {"/etc", "/proc", "/sys", "/dev"};

std::string octal(int64_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0%llo", static_cast<unsigned long long>(value));
  return text;
}

/// The keys a ConfigMap holds, from `data` and `binaryData`.
std::vector<std::string> config_map_keys(const Json& config_map) {
  std::vector<std::string> keys;
  for (const char* field : {"data", "binaryData"}) {
    const Json& entries = json_member(config_map, field);
    if (!entries.is_object()) continue;
    for (const auto& entry : entries.items())
      keys.push_back(entry.key());
  }
  return keys;
}

/// "items[1].path \"../x\": ..." for the item that would leave the volume.
std::string item_problem(const Json& item, size_t index) {
  std::string field = "items[" + std::to_string(index) + "]";
  const Json& path = json_member(item, "path");
  std::string text = path.is_string() ? path.get<std::string>() : string_member(item, "key");
  std::string problem = beneath_path_problem(text);
  if (!problem.empty()) return field + ".path " + quoted_value(text) + ": " + problem;
  if (const Json& mode = json_member(item, "mode"); !mode.is_null()) {
    problem = file_mode_problem(mode);
    if (!problem.empty()) return field + ".mode: " + problem;
  }
  return "";
}

std::string items_problem(const Json& items) {
  for (size_t i = 0; i < items.size(); ++i) {
    std::string problem = item_problem(items[i], i);
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace

int64_t job_pod_count(const Json& job) {
  const Json& spec = json_member(job, "spec");
  const Json& completions = json_member(spec, "completions");
  const Json& parallelism = json_member(spec, "parallelism");
  int64_t count = 1;
  if (completions.is_number_integer()) {
    count = completions.get<int64_t>();
  } else if (parallelism.is_number_integer()) {
    count = parallelism.get<int64_t>();
  }
  return count < 0 ? 0 : count;
}

int64_t add_pods(int64_t a, int64_t b) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  return a > kMax - b ? kMax : a + b;
}

std::string pod_cap_problem(int64_t pods, int64_t max_pods) {
  if (pods <= max_pods) return "";
  return "the inputs would run " + std::to_string(pods) + " pods on this machine, more than " +
         "--max-pods " + std::to_string(max_pods) +
         " allows; lower numNodes, or raise --max-pods if this machine can run them";
}

std::string quoted_value(std::string_view text) {
  if (text.size() <= kShownChars) return "\"" + std::string(text) + "\"";
  return "\"" + std::string(text.substr(0, kShownChars)) + "...\" (" + std::to_string(text.size()) +
         " characters)";
}

std::string single_name_problem(std::string_view name) {
  std::string problem = beneath_path_problem(name);
  if (!problem.empty()) return problem;
  if (name.find('/') != std::string_view::npos) return "a \"/\"; it must be a single name";
  return "";
}

std::string file_mode_problem(const Json& mode) {
  if (!mode.is_number_integer()) return "not an integer";
  int64_t value = mode.get<int64_t>();
  if (value < 0 || value > 0777) {
    return std::to_string(value) + " (" + octal(value) +
           " in octal) is outside 0 to 0777: setuid, setgid and sticky bits are refused";
  }
  return "";
}

std::string config_map_volume_problem(const Json& source, const Json* config_map) {
  if (const Json& mode = json_member(source, "defaultMode"); !mode.is_null()) {
    std::string problem = file_mode_problem(mode);
    if (!problem.empty()) return "defaultMode: " + problem;
  }
  const Json& items = json_member(source, "items");
  if (items.is_array()) return items_problem(items);
  if (config_map == nullptr) return "";
  // Without items every key becomes a file of the same name.
  for (const std::string& key : config_map_keys(*config_map)) {
    std::string problem = single_name_problem(key);
    if (!problem.empty()) return "ConfigMap key " + quoted_value(key) + ": " + problem;
  }
  return "";
}

std::string host_path_refusal(std::string_view path) {
  std::string normal = std::filesystem::path(path).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/')
    normal.pop_back();
  if (normal == "/") return "the root directory";
  for (const char* dir : kSystemDirs) {
    std::string_view system = dir;
    if (normal.compare(0, system.size(), system) == 0 &&
        (normal.size() == system.size() || normal[system.size()] == '/')) {
      return "a system directory (" + std::string(system) + (normal == dir ? "" : " or beneath") +
             ")";
    }
  }
  return "";
}

namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() > suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string unmounted_script(const std::vector<std::string>& argv,
                             const std::function<bool(const std::string&)>& exists) {
  for (const std::string& word : argv) {
    bool script = ends_with(word, ".py") || ends_with(word, ".sh");
    if (script && word[0] == '/' && word.find_first_of(" \t$") == std::string::npos &&
        !exists(word))
      return word;
  }
  return "";
}

std::string unmounted_script_hint(const std::string& script) {
  size_t slash = script.rfind('/');
  std::string dir = script.substr(0, slash);
  std::string name = script.substr(slash + 1);
  if (dir == "/workspace")
    return "pass --from-file " + name + " (your copy; --from-file mounts its files at /workspace)";
  return "mount a volume that holds it at " + dir + " (hostPath, or a ConfigMap among the inputs)";
}

}  // namespace trainjob
