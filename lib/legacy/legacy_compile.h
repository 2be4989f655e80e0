// A Training Operator v1 job -> the plain objects that run it without the operator: one
// headless Service and one batch/v1 Job per pod the operator would create, named, labelled
// and given env as the operator gives them (docs/legacy-kinds.md).
#ifndef TRAINJOB_LEGACY_LEGACY_COMPILE_H_
#define TRAINJOB_LEGACY_LEGACY_COMPILE_H_

#include <vector>

#include "diag/diagnostic.h"
#include "load/document.h"
#include "load/json.h"
#include "render/compile.h"

namespace trainjob {

/// Compiles one legacy document (is_legacy_document). Returns Services, then extra objects
/// (a PodGroup), then the Jobs, keys sorted; nothing when there were errors (in
/// `diagnostics`).
std::vector<Json> compile_legacy_job(const Document& document, const CompileOptions& options,
                                     Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_LEGACY_COMPILE_H_
