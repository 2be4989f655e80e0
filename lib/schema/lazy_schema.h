// The embedded schemas are large (a v2.1 TrainJob's is 30 kB minified, a runtime's 60 kB)
// and one document reaches a small part of them: a ConfigMap-mode TrainJob never comes near
// the schemas of affinity or of ephemeral volumes, yet building the whole tree of one was a
// third of the instructions of a one-TrainJob render. So a schema is built one level at a
// time: a large subschema stays a placeholder until a value first reaches it.
#ifndef TRAINJOB_SCHEMA_LAZY_SCHEMA_H_
#define TRAINJOB_SCHEMA_LAZY_SCHEMA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schema/keyword_index.h"

namespace trainjob {

/// A subschema whose text is longer than this is left as a placeholder.
inline constexpr size_t kLazySchemaBytes = 512;

/// The placeholder's one key, `{"$lazy": [text id, begin, end]}`: not a JSON Schema
/// keyword, and no embedded schema uses it.
inline constexpr const char* kLazyKeyword = "$lazy";

/// The text of a schema (valid JSON, as the embedded files are, outliving this) and where
/// each of its values ends, found in one pass: building a level then costs the size of
/// that level, not of everything below it.
class LazySchemaText {
 public:
  explicit LazySchemaText(std::string_view text);

  /// The whole schema, its own keywords built and each subschema (a property, `items`,
  /// `additionalProperties`) longer than kLazySchemaBytes left as a placeholder naming
  /// `id`, by which SchemaSet finds this text again.
  Schema build(size_t id) const;
  /// The subschema a placeholder of this text stands for, built the same way.
  Schema build(const Schema& placeholder) const;

 private:
  struct Member {
    std::string key;
    size_t begin, end;  ///< of the value
  };
  /// The members of the object that starts at `object`, in order.
  std::vector<Member> members(size_t object) const;
  Schema build_level(size_t begin, size_t end, size_t id) const;
  Schema subschema(size_t begin, size_t end, size_t id) const;
  Schema parse(size_t begin, size_t end) const;
  size_t value_end(size_t at) const;
  size_t skip_space(size_t at) const;

  std::string_view text_;
  /// For the position of each '{', '[' and opening '"': one past the value's end.
  std::vector<uint32_t> ends_;
};

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_LAZY_SCHEMA_H_
