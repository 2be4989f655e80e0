// libFuzzer target for the names that become paths. For any bytes as a name or a path:
// - what beneath_path_problem accepts stays beneath its root when normalised;
// - what a name rule accepts is one path segment;
// - check_input_names on a document holding the bytes in every path-bound field refuses
//   each field whose value breaks its rule, and nothing else;
// - RootDir::write_file with the bytes as the path creates nothing outside its root (a
//   sandbox made once per process, whose sibling directory must stay empty).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "k8s/names.h"
#include "pipeline/input_names.h"
#include "util/beneath.h"

namespace {

namespace fs = std::filesystem;
using trainjob::Json;

void require(bool condition, const char* what, const std::string& input) {
  if (condition) return;
  std::fprintf(stderr, "path_names_fuzz: %s for input of %zu bytes\n", what, input.size());
  std::abort();
}

bool is_segment(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

/// A root and an empty sibling directory, made once; the sibling must stay empty.
struct Sandbox {
  Sandbox() {
    const char* temp = std::getenv("TMPDIR");
    std::string pattern = std::string(temp != nullptr ? temp : "/tmp") + "/path-names-fuzz-XXXXXX";
    base = ::mkdtemp(pattern.data());
    fs::create_directories(base + "/a/b/root");
    fs::create_directories(base + "/a/b/sibling");
    std::string error;
    if (!root.open(base + "/a/b/root", &error)) std::abort();
  }
  ~Sandbox() { trainjob::remove_tree(base); }
  std::string base;
  trainjob::RootDir root;
};

void check_beneath(const std::string& path) {
  if (!trainjob::beneath_path_problem(path).empty()) return;
  fs::path normal = (fs::path("/root") / path).lexically_normal();
  std::string text = normal.string();
  require(text.rfind("/root/", 0) == 0 && text.size() > 6, "an accepted path leaves its root",
          path);
}

void check_rules(const std::string& name) {
  if (trainjob::is_dns1123_subdomain(name) || trainjob::is_config_map_key(name) ||
      trainjob::is_kind_name(name) || trainjob::is_dns1123_label(name)) {
    require(is_segment(name), "an accepted name is not one path segment", name);
  }
}

/// The number of findings for a ConfigMap and a Job holding `text` in each field.
void check_document(const std::string& text) {
  Json config_map = {{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata", {{"name", text}, {"namespace", text}}},
                     {"data", {{text, "x"}}}};
  Json volume = {{"name", text},
                 {"configMap", {{"name", "c"}, {"items", {{{"key", "k"}, {"path", text}}}}}}};
  Json job = {{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", "j"}}},
              {"spec", {{"template", {{"spec", {{"volumes", {volume}}}}}}}}};
  size_t expected = !trainjob::is_dns1123_subdomain(text) + !trainjob::is_dns1123_label(text) +
                    !trainjob::is_config_map_key(text);
  trainjob::Diagnostics found;
  check_input_names({"in.yaml", 0, config_map, nullptr}, &found);
  require(found.all().size() == expected, "ConfigMap findings do not match the rules", text);
  expected = !trainjob::is_dns1123_label(text) + !trainjob::beneath_path_problem(text).empty();
  trainjob::Diagnostics job_found;
  check_input_names({"in.yaml", 0, job, nullptr}, &job_found);
  require(job_found.all().size() == expected, "Job findings do not match the rules", text);
}

size_t entries(const std::string& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

void check_write(const Sandbox& sandbox, const std::string& path) {
  std::string error;
  sandbox.root.write_file(path, "x", 04777, &error);
  const std::string& base = sandbox.base;
  require(entries(base) == 1 && entries(base + "/a") == 1 && entries(base + "/a/b") == 2 &&
              entries(base + "/a/b/sibling") == 0,
          "a write created something outside its root", path);
  // Each input starts from an empty root.
  for (const auto& entry : fs::directory_iterator(base + "/a/b/root"))
    trainjob::remove_tree(entry.path().string());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Sandbox sandbox;
  std::string text(reinterpret_cast<const char*>(data), size);
  check_beneath(text);
  check_rules(text);
  check_document(text);
  if (size < 4096) check_write(sandbox, text);
  return 0;
}
