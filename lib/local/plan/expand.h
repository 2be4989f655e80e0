// Kubernetes' `$(VAR)` references, expanded the way the kubelet expands them in a
// container's command, args and env values.
#ifndef TRAINJOB_LOCAL_PLAN_EXPAND_H_
#define TRAINJOB_LOCAL_PLAN_EXPAND_H_

#include <functional>
#include <string>
#include <string_view>

namespace trainjob {

/// The value of a variable, or nullptr when it is not defined.
using VariableLookup = std::function<const std::string*(std::string_view name)>;

/// Replaces each `$(NAME)` whose NAME `lookup` knows. As the kubelet does: `$$` is a
/// literal `$` (so `$$(NAME)` stays `$(NAME)`), a reference to an unknown name and an
/// unclosed `$(` are left as written, and `$` before anything else is kept with it.
std::string expand_references(std::string_view input, const VariableLookup& lookup);

}  // namespace trainjob

#endif  // TRAINJOB_LOCAL_PLAN_EXPAND_H_
