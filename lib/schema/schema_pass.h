// The schema pass over the input documents, and how its findings keep the later semantic
// checks from saying the same thing twice.
#ifndef TRAINJOB_SCHEMA_SCHEMA_PASS_H_
#define TRAINJOB_SCHEMA_SCHEMA_PASS_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "model/dialect.h"
#include "schema/input_schemas.h"

namespace trainjob {

class InputCheck {
 public:
  explicit InputCheck(const std::vector<Document>& documents);

  /// Checks one TrainJob or runtime against the schema of its dialect (`forced`, else the
  /// one its fields speak; a TrainJob whose fields mix dialects is left to the semantic
  /// check, which says so). Other documents have no schema here. Safe to call from several
  /// threads with one `schemas` each.
  static void check_schema(const Document& document, std::optional<Dialect> forced,
                           InputSchemas* schemas, Diagnostics* findings);
  /// Takes the findings of check_schema for the merge.
  void add_schema_findings(const Diagnostics& findings);
  /// Adds the schema findings and the semantic ones (`semantic`) to `into`, each said once:
  /// where both name the same field, the semantic check's words win (they are specific);
  /// a semantic finding under a field the schema already rejected is left out.
  void merge(const Diagnostics& semantic, Diagnostics* into) const;

 private:
  /// The first line of the document of `file` that holds `line`.
  int document_start(const std::string& file, int line) const;

  std::map<std::string, std::vector<int>> starts_;             ///< per file, sorted
  using FieldKey = std::tuple<std::string, int, std::string>;  ///< file, start, path
  FieldKey key_of(const Diagnostic& diagnostic) const;

  Diagnostics schema_findings_;
};

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_SCHEMA_PASS_H_
