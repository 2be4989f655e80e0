// kubectl's `-o jsonpath=TEMPLATE` over a JSON value: the subset people type. No C++ library
// in Debian reads kubectl's dialect (its templates mix text, `{range}` and filters), so this
// is the small evaluator it needs.
//
// A template is text with actions in braces: `{.status.phase}`, `{.items[*].metadata.name}`,
// `{.status.conditions[?(@.type=="Complete")].status}`, `{range .items[*]}...{end}` and
// string literals `{"\n"}`. Paths take `.name` (a `\.` inside a name is a dot), `['name']`,
// `[N]` (negative from the end), `[A:B]`, `[*]`, `.*`, `..name` (at any depth) and filters
// `[?(@.path OP literal)]` (==, !=, <, <=, >, >=) or `[?(@.path)]` (exists). As kubectl get
// does, a missing key prints nothing; several results are joined by spaces; strings print
// bare, other values as compact JSON.
#ifndef TRAINJOB_OUTPUT_JSONPATH_H_
#define TRAINJOB_OUTPUT_JSONPATH_H_

#include <optional>
#include <string>
#include <string_view>

#include "load/json.h"

namespace trainjob {

/// The template applied to `root`; nullopt, with `*error` saying where and what, when the
/// template cannot be read.
std::optional<std::string> evaluate_jsonpath(const Json& root, std::string_view template_text,
                                             std::string* error);

}  // namespace trainjob

#endif  // TRAINJOB_OUTPUT_JSONPATH_H_
