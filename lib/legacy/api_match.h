// Which apiVersion and kind pairs the plugin compiles, and what to say about a document that
// names one of our kinds or groups in a form it does not compile: a pre-release API
// (kubeflow.org/v2alpha1), a training kind under a retired version (kubeflow.org/v1beta1) or
// retired altogether (MXJob), a kind spelt in another case, a kind under another of our
// groups. Such a document would otherwise pass through render unchanged and fail only on the
// cluster.
#ifndef TRAINJOB_LEGACY_API_MATCH_H_
#define TRAINJOB_LEGACY_API_MATCH_H_

#include <optional>
#include <string>
#include <string_view>

#include "diag/diagnostic.h"
#include "load/document.h"

namespace trainjob {

/// A refused apiVersion/kind pair: the field the message points at and the message.
struct ApiMismatch {
  std::string field;  ///< "apiVersion" or "kind"
  std::string message;
};

/// Nothing when the pair is one we compile, or names neither one of our kinds (in any case,
/// or misspelt within our groups) nor a kind of trainer.kubeflow.org. Whether a document is
/// ours is decided by its kind and group: Kubeflow's other kinds of kubeflow.org (Notebook,
/// Profile, PodDefault, ...) and a kind of ours under someone else's group pass, while a
/// training kind under a version of kubeflow.org no release serves (PyTorchJob of v1beta1,
/// MXJob of any) is refused. `file` names the input in the fix `convert` offers.
std::optional<ApiMismatch> match_api_kind(std::string_view api_version, std::string_view kind,
                                          std::string_view file);

/// True for a TrainJob, TrainingRuntime or ClusterTrainingRuntime of kubeflow.org/v2alpha1,
/// the pre-release API `convert` migrates.
bool is_v2alpha1_document(const Document& document);

/// Reports match_api_kind's finding for `document` at its field; false when it reported.
bool check_api_kind(const Document& document, Diagnostics* diagnostics);

}  // namespace trainjob

#endif  // TRAINJOB_LEGACY_API_MATCH_H_
