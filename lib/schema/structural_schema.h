// Kubernetes structural schemas: the subset of OpenAPI v3 that CRDs and the built-in
// types use, with Kubernetes' reading of it: an object with `properties` is closed
// (unknown fields are errors, as `kubectl --validate=strict` treats them) unless marked
// x-kubernetes-preserve-unknown-fields; x-kubernetes-int-or-string takes either.
// With `json_schema_semantics` the same engine follows plain JSON Schema instead (objects
// open unless additionalProperties says otherwise), which is how the JSON-Schema-Test-Suite
// exercises it.
#ifndef TRAINJOB_SCHEMA_STRUCTURAL_SCHEMA_H_
#define TRAINJOB_SCHEMA_STRUCTURAL_SCHEMA_H_

#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "load/json.h"
#include "schema/keyword_index.h"
#include "schema/lazy_schema.h"

namespace trainjob {

struct SchemaProblem {
  std::string path;  ///< field path of the offending value
  std::string message;
  bool unknown_field = false;  ///< the path names a key that should not be there
};

struct SchemaOptions {
  /// Built-in types decode resource quantities from any JSON number (`cpu: 0.5`), while a
  /// CRD's int-or-string field takes only integers and strings.
  bool built_in_types = false;
  /// Plain JSON Schema: objects are open unless additionalProperties closes them.
  bool json_schema_semantics = false;
};

/// Named schemas; `{"$ref": "name"}` refers to another schema of the set. A set expands the
/// placeholders of lazily parsed schemas (schema/lazy_schema.h) as it checks values, so one
/// set is not used by two threads at once.
class SchemaSet {
 public:
  explicit SchemaSet(SchemaOptions options = {}) : options_(options) {}

  void add(const std::string& name, Schema schema);
  bool has(std::string_view name) const;
  /// Finds the keywords of every object inside `schema` once, so that validating against
  /// it is fast. `schema` must outlive the set and stay unchanged; a schema not prepared
  /// is still checked, only slower.
  void prepare(const Schema& schema) { index_keywords(schema); }
  /// The schema `text` (valid JSON that outlives the set), built one level at a time as
  /// values reach it (schema/lazy_schema.h); only this set can expand it.
  Schema parse_lazily(std::string_view text);
  /// Every problem of `value` against schema `name` (which must exist).
  std::vector<SchemaProblem> validate(const Json& value, std::string_view name) const;
  /// Every problem of `value` against `schema` (whose $refs name schemas of the set).
  std::vector<SchemaProblem> validate_against(const Json& value, const Schema& schema) const;

 private:
  struct Context;
  struct Path;
  void check(const Json& value, const Schema& schema, const Path& path, Context* c) const;
  void check_object(const Json& value, const SchemaKeywords& schema, const Path& path,
                    Context* c) const;
  void check_array(const Json& value, const SchemaKeywords& schema, const Path& path,
                   Context* c) const;
  const Schema& resolve(const Schema& schema) const;
  /// The schema a placeholder stands for, built and prepared on first use.
  const Schema& expand(const Schema& placeholder) const;
  void index_keywords(const Schema& schema) const;
  /// The keywords of `schema`: prepared ones from the index, others found into `scratch`.
  const SchemaKeywords& keywords_of(const Schema& schema, SchemaKeywords* scratch) const;

  SchemaOptions options_;
  std::map<std::string, Schema, std::less<>> schemas_;
  // Caches, filled as values are checked.
  mutable std::unordered_map<const Schema*, SchemaKeywords> index_;
  mutable std::unordered_map<const Schema*, Schema> expanded_;  ///< by placeholder
  std::deque<LazySchemaText> lazy_texts_;                       ///< by the id placeholders name
};

/// The schema name for an object: `batch/v1` `Job` -> `batch-v1-job`.
std::string schema_name_for(std::string_view api_version, std::string_view kind);

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_STRUCTURAL_SCHEMA_H_
