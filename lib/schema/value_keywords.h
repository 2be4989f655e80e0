// The schema keywords that look at one value by itself (not at its children).
#ifndef TRAINJOB_SCHEMA_VALUE_KEYWORDS_H_
#define TRAINJOB_SCHEMA_VALUE_KEYWORDS_H_

#include <string>
#include <vector>

#include "load/json.h"
#include "schema/keyword_index.h"
#include "schema/structural_schema.h"

namespace trainjob {

/// `type`: false (with a message) when the value has another type; nothing else about the
/// value is worth checking then.
bool check_type(const Json& value, const SchemaKeywords& schema, const SchemaOptions& options,
                std::vector<std::string>* messages);
/// enum, pattern, format, numeric bounds and string lengths.
void check_value_keywords(const Json& value, const SchemaKeywords& schema,
                          std::vector<std::string>* messages);
/// minItems, maxItems, uniqueItems and Kubernetes' list types (`map` keys, `set`).
void check_list_keywords(const Json& value, const SchemaKeywords& schema,
                         std::vector<std::string>* messages);

/// "a mapping", "an integer", ... for messages.
std::string type_phrase(const std::string& type);

}  // namespace trainjob

#endif  // TRAINJOB_SCHEMA_VALUE_KEYWORDS_H_
