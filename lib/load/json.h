// The one JSON value type the pipeline passes around.
#ifndef TRAINJOB_LOAD_JSON_H_
#define TRAINJOB_LOAD_JSON_H_

#include <nlohmann/json.hpp>

namespace trainjob {

/// Keys keep their insertion order, so documents that pass through `render`
/// unchanged come out in the order the user wrote them.
using Json = nlohmann::ordered_json;

}  // namespace trainjob

#endif  // TRAINJOB_LOAD_JSON_H_
