// A KRM function's findings: diagnostics as the `results` of a ResourceList, which kpt
// prints per resource and field.
#ifndef TRAINJOB_KRM_KRM_RESULTS_H_
#define TRAINJOB_KRM_KRM_RESULTS_H_

#include <map>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "load/json.h"

namespace trainjob {

/// What a diagnostic's file name stands for: an item of the input list.
struct ResultSubject {
  const Json* item = nullptr;  ///< the resource the finding is about
  std::string path_prefix;     ///< stripped from the field path (`functionConfig.`)
};

/// Diagnostic file name -> the item it names.
using ResultSubjects = std::map<std::string, ResultSubject>;

/// One result per diagnostic, in the order given: `severity` (error, warning), `message`,
/// and where known `resourceRef` (apiVersion, kind, name, namespace), `field.path` and
/// `file` (`path`, `index`, from the item's annotations). A finding about no item tells
/// its file (and position) in the message.
Json krm_results(const std::vector<Diagnostic>& diagnostics, const ResultSubjects& subjects);

}  // namespace trainjob

#endif  // TRAINJOB_KRM_KRM_RESULTS_H_
