#include "schema/input_schemas.h"

#include <cctype>

#include "embed/embedded.h"
#include "model/vocabulary.h"

namespace trainjob {
namespace {

const char* dialect_dir(Dialect dialect) {
  switch (dialect) {
    case Dialect::kV2_0:
      return "v2.0";
    case Dialect::kV2_1:
      return "v2.1";
    default:
      return "v2.3";  // v2.2 and v2.3 share the newest CRDs
  }
}

/// The folder of the Training Operator v1 schemas (legacy-v1/; mpi-operator's kubeflow.org/
/// v2beta1 MPIJob is in legacy-v2beta1/), and the pod template the v1 kinds share.
constexpr const char* kLegacyDirPrefix = "legacy-";
constexpr const char* kLegacyPodTemplate = "legacy-pod-template";

const EmbeddedFile* embedded_schema(const std::string& path) {
  for (const EmbeddedFile& file : embedded_schemas()) {
    if (file.path == path) return &file;
  }
  return nullptr;
}

}  // namespace

InputSchemas::InputSchemas() {
  add_named("input-object-meta", "input-object-meta.json");
}

void InputSchemas::add_named(const char* name, const std::string& path) {
  if (set_.has(name)) return;
  const EmbeddedFile* file = embedded_schema(path);
  if (file != nullptr) set_.add(name, set_.parse_lazily(file->contents));
}

const Schema& InputSchemas::schema(Dialect dialect, const char* file) {
  return *embedded(std::string(dialect_dir(dialect)) + "/" + file);
}

const Schema* InputSchemas::embedded(const std::string& path) {
  auto it = parsed_.find(path);
  if (it == parsed_.end()) {
    const EmbeddedFile* file = embedded_schema(path);
    if (file == nullptr) return nullptr;
    it = parsed_.emplace(path, set_.parse_lazily(file->contents)).first;
    set_.prepare(it->second);
  }
  return &it->second;
}

std::vector<SchemaProblem> InputSchemas::check_legacy(const Json& job,
                                                      const std::string& api_version,
                                                      const std::string& kind) {
  std::string lower = kind;
  for (char& c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string version = api_version.substr(std::string(kKubeflowGroupPrefix).size());
  const Schema* schema = embedded(kLegacyDirPrefix + version + "/" + lower + ".json");
  if (schema == nullptr) return {};
  add_named(kLegacyPodTemplate, std::string(kLegacyDirPrefix) + "v1/pod-template.json");
  return set_.validate_against(job, *schema);
}

std::vector<SchemaProblem> InputSchemas::check_optimization_job(const Json& job) {
  return set_.validate_against(job, *embedded("optimization/optimizationjob.json"));
}

std::vector<SchemaProblem> InputSchemas::check_trainjob(const Json& trainjob, Dialect dialect) {
  return set_.validate_against(trainjob, schema(dialect, "trainjob.json"));
}

std::vector<SchemaProblem> InputSchemas::check_runtime(const Json& runtime, Dialect preferred) {
  std::vector<SchemaProblem> problems =
      set_.validate_against(runtime, schema(preferred, "runtime.json"));
  if (problems.empty()) return problems;
  for (Dialect other : {Dialect::kV2_1, Dialect::kV2_3, Dialect::kV2_0}) {
    if (set_.validate_against(runtime, schema(other, "runtime.json")).empty()) return {};
  }
  return problems;
}

void report_schema_problems(const Document& document, const std::vector<SchemaProblem>& problems,
                            Diagnostics* diagnostics) {
  for (const SchemaProblem& problem : problems) {
    SourcePos pos = problem.unknown_field ? document.key_pos_of(problem.path)
                                          : document.message_pos_of(problem.path);
    diagnostics->error(document.file, pos, problem.path, problem.message);
  }
}

}  // namespace trainjob
