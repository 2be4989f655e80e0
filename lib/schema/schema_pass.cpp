#include "schema/schema_pass.h"

#include <algorithm>

#include "load/field_path.h"
#include "model/runtime_registry.h"
#include "model/trainjob.h"
#include "model/vocabulary.h"
#include "schema/input_schemas.h"

namespace trainjob {

InputCheck::InputCheck(const std::vector<Document>& documents) {
  for (const Document& document : documents) {
    starts_[document.file].push_back(document.pos_of("").line);
  }
  for (auto& [file, starts] : starts_)
    std::sort(starts.begin(), starts.end());
}

int InputCheck::document_start(const std::string& file, int line) const {
  auto it = starts_.find(file);
  if (it == starts_.end()) return 0;
  auto after = std::upper_bound(it->second.begin(), it->second.end(), line);
  return after == it->second.begin() ? 0 : *(after - 1);
}

InputCheck::FieldKey InputCheck::key_of(const Diagnostic& diagnostic) const {
  return {diagnostic.file, document_start(diagnostic.file, diagnostic.pos.line), diagnostic.path};
}

void InputCheck::check_schema(const Document& document, std::optional<Dialect> forced,
                              InputSchemas* schemas, Diagnostics* findings) {
  std::vector<SchemaProblem> problems;
  if (is_trainjob_document(document)) {
    std::optional<Dialect> dialect = trainjob_dialect(document, forced);
    if (dialect) problems = schemas->check_trainjob(document.value, *dialect);
  } else if (is_runtime_document(document)) {
    problems = schemas->check_runtime(document.value, forced.value_or(Dialect::kV2_1));
  } else if (document.api_version() == kKubeflowV1ApiVersion ||
             document.api_version() == kKubeflowV2beta1ApiVersion) {
    problems = schemas->check_legacy(document.value, document.api_version(), document.kind());
  } else if (is_optimization_job_document(document)) {
    problems = schemas->check_optimization_job(document.value);
  }
  report_schema_problems(document, problems, findings);
}

void InputCheck::add_schema_findings(const Diagnostics& findings) {
  for (const Diagnostic& finding : findings.all())
    schema_findings_.add(finding);
}

void InputCheck::merge(const Diagnostics& semantic, Diagnostics* into) const {
  if (schema_findings_.all().empty()) {  // nothing to weigh the findings against
    for (const Diagnostic& diagnostic : semantic.all())
      into->add(diagnostic);
    return;
  }
  std::set<FieldKey> semantic_fields;
  for (const Diagnostic& diagnostic : semantic.all())
    semantic_fields.insert(key_of(diagnostic));
  std::set<FieldKey> schema_fields;
  std::set<FieldKey> meant;  // fields an unknown key was probably meant to be
  for (const Diagnostic& diagnostic : schema_findings_.all()) {
    FieldKey key = key_of(diagnostic);
    schema_fields.insert(key);
    if (semantic_fields.count(key) == 0) into->add(diagnostic);
    size_t hint = diagnostic.message.find("did you mean \"");
    if (hint != std::string::npos) {
      size_t start = hint + 14;
      std::string name =
          diagnostic.message.substr(start, diagnostic.message.find('"', start) - start);
      meant.insert(
          {std::get<0>(key), std::get<1>(key), field_child(field_parent(diagnostic.path), name)});
    }
  }
  for (const Diagnostic& diagnostic : semantic.all()) {
    if (meant.count(key_of(diagnostic)) > 0) continue;  // "missing", but misspelt nearby
    auto [file, start, path] = key_of(diagnostic);
    bool under_rejected = false;
    for (std::string_view parent = field_parent(path); !under_rejected;
         parent = field_parent(parent)) {
      under_rejected = schema_fields.count({file, start, std::string(parent)}) > 0;
      if (parent.empty()) break;
    }
    if (!under_rejected) into->add(diagnostic);
  }
}

}  // namespace trainjob
