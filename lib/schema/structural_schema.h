// Kubernetes structural schemas: the subset of OpenAPI v3 that CRDs and the built-in
// types use, with Kubernetes' reading of it: an object with `properties` is closed
// (unknown fields are errors, as `kubectl --validate=strict` treats them) unless marked
// x-kubernetes-preserve-unknown-fields; x-kubernetes-int-or-string takes either.
#ifndef TRAINJOB_SCHEMA_STRUCTURAL_SCHEMA_H_
#define TRAINJOB_SCHEMA_STRUCTURAL_SCHEMA_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "load/json.h"

namespace trainjob {

struct SchemaProblem {
  std::string path;  ///< field path of the offending value
  std::string message;
};

/// Named schemas; `{"$ref": "name"}` refers to another schema of the set.
class SchemaSet {
 public:
  /// Built-in types decode resource quantities from any JSON number (`cpu: 0.5`), while a
  /// CRD's int-or-string field takes only integers and strings.
  explicit SchemaSet(bool built_in_types = false) : built_in_types_(built_in_types) {}

  void add(const std::string& name, Json schema);
  bool has(std::string_view name) const;
  /// Every problem of `value` against schema `name` (which must exist).
  std::vector<SchemaProblem> validate(const Json& value, std::string_view name) const;

 private:
  void check(const Json& value, const Json& schema, const std::string& path,
             std::vector<SchemaProblem>* problems) const;
  void check_object(const Json& value, const Json& schema, const std::string& path,
                    std::vector<SchemaProblem>* problems) const;
  const Json& resolve(const Json& schema) const;

  bool built_in_types_;
  std::map<std::string, Json, std::less<>> schemas_;
};

/// The schema name for an object: `batch/v1` `Job` -> `batch-v1-job`.
std::string schema_name_for(std::string_view api_version, std::string_view kind);

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_STRUCTURAL_SCHEMA_H_
