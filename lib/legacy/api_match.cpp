#include "legacy/api_match.h"

#include <algorithm>
#include <vector>

#include "k8s/api_scope.h"
#include "legacy/legacy_kinds.h"
#include "model/dialect.h"
#include "model/runtime_registry.h"
#include "model/vocabulary.h"
#include "util/suggest.h"
#include "util/text.h"

namespace trainjob {
namespace {

/// One kind we compile and the apiVersions it is served as.
struct ServedKind {
  std::string kind;
  std::vector<std::string> api_versions;
  const LegacyKind* legacy = nullptr;  ///< a Training Operator (or mpi-operator) kind's entry
};

/// Training kinds of kubeflow.org that no release we compile for serves in any version.
struct RetiredKind {
  const char* kind;
  const char* why;
};
constexpr RetiredKind kRetiredKinds[] = {
    {"MXJob", "MXJob was removed in Training Operator v1.9, and no Trainer runtime runs MXNet"},
};

/// What the v1 API keeps under spec.runPolicy, and the versions before it in spec itself.
constexpr const char* kMovedRunPolicyFields =
    "cleanPodPolicy, backoffLimit, activeDeadlineSeconds, ttlSecondsAfterFinished";

constexpr std::string_view kKubeflowGroup = "kubeflow.org";
constexpr std::string_view kTrainerGroup = "trainer.kubeflow.org";

constexpr const char* kTrainerKinds[] = {kTrainJob, kTrainingRuntime, kClusterTrainingRuntime};

/// The Trainer's kinds, then the Training Operator v1 kinds of the legacy table (MPIJob once,
/// with both its apiVersions).
const std::vector<ServedKind>& served_kinds() {
  static const std::vector<ServedKind> kinds = [] {
    std::vector<ServedKind> out;
    for (const char* kind : kTrainerKinds)
      out.push_back({kind, {kTrainerApiVersion}});
    out.push_back({kOptimizationJobKind, {kTrainerApiVersion}});  // not in v2alpha1
    for (const LegacyKind* legacy : all_legacy_kinds()) {
      auto same = [legacy](const ServedKind& served) { return served.kind == legacy->kind; };
      auto it = std::find_if(out.begin(), out.end(), same);
      if (it == out.end()) {
        out.push_back({legacy->kind, {legacy->api_version}, legacy});
      } else {
        it->api_versions.push_back(legacy->api_version);
      }
    }
    return out;
  }();
  return kinds;
}

bool kind_equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && edit_distance(a, b) == 0;
}

bool is_trainer_kind(std::string_view kind) {
  return std::find(std::begin(kTrainerKinds), std::end(kTrainerKinds), kind) !=
         std::end(kTrainerKinds);
}

const ServedKind* find_served_kind(std::string_view kind) {
  for (const ServedKind& served : served_kinds()) {
    if (served.kind == kind) return &served;
  }
  return nullptr;
}

const RetiredKind* find_retired_kind(std::string_view kind) {
  for (const RetiredKind& retired : kRetiredKinds) {
    if (retired.kind == kind) return &retired;
  }
  return nullptr;
}

/// A group where one of our kinds under another version or group is a mistake: ours, and
/// Kubernetes' own (which serve no custom kinds). Any other group's kind of the same name is
/// someone else's (PaddlePaddle's own PaddleJob is batch.paddlepaddle.org/v1) and passes.
bool claims_our_kinds(std::string_view api_version) {
  std::string_view group = api_group(api_version);
  return group == kKubeflowGroup || group == kTrainerGroup || is_builtin_group(group);
}

bool kind_serves(const ServedKind& served, std::string_view api_version) {
  const auto& versions = served.api_versions;
  return std::find(versions.begin(), versions.end(), api_version) != versions.end();
}

/// "kubeflow.org/v1 or kubeflow.org/v2beta1"
std::string versions_text(const ServedKind& served) {
  std::string out;
  for (const std::string& version : served.api_versions)
    out += (out.empty() ? "" : " or ") + version;
  return out;
}

/// The kind `kind` was probably meant to be: ours spelt in another case, under any group;
/// within our groups also a near miss ("PytorchJobs"), found as field names are.
const ServedKind* meant_kind(std::string_view api_version, std::string_view kind) {
  for (const ServedKind& served : served_kinds()) {
    if (kind_equals_ignoring_case(served.kind, kind)) return &served;
  }
  if (!starts_with(api_version, kTrainerGroupPrefix) &&
      !starts_with(api_version, kKubeflowGroupPrefix)) {
    return nullptr;
  }
  std::vector<std::string_view> names;
  for (const ServedKind& served : served_kinds())
    names.push_back(served.kind);
  std::string match = closest_match(kind, names);
  return match.empty() ? nullptr : find_served_kind(match);
}

/// The file `convert -f` should read: `-` for standard input, a KRM item's own file without
/// its `[index]`, FILE where the item names none (`items[3]`).
std::string convert_input_name(std::string_view file) {
  if (file == "STDIN") return "-";
  size_t bracket = file.rfind('[');
  if (!file.empty() && file.back() == ']' && bracket != std::string_view::npos)
    file = file.substr(0, bracket);
  return file.empty() || file == "items" ? "FILE" : std::string(file);
}

std::string v2alpha1_message(std::string_view kind, std::string_view file) {
  std::string input = convert_input_name(file);
  return std::string(kKubeflowV2alpha1ApiVersion) +
         " is the pre-release Trainer API of Training Operator 1.9, which no Trainer release "
         "serves; " +
         std::string(kind) + " is served as " + kTrainerApiVersion +
         ": run `kubectl trainjob convert --to " + dialect_info(kDefaultDialect).version + " -f " +
         input + "` to migrate it";
}

std::string misspelt_message(std::string_view api_version, std::string_view kind,
                             const ServedKind& meant) {
  std::string message = "kind \"" + std::string(kind) + "\" is not a kind of " +
                        std::string(api_version) + "; did you mean \"" + meant.kind + "\"";
  if (!kind_serves(meant, api_version)) message += " of " + versions_text(meant);
  return message + "?";
}

/// A Training Operator kind under a version of kubeflow.org no release we target serves
/// (v1beta1, v1alpha2, ...): the version to write, what moved, and `convert` where a Trainer
/// runtime runs the kind.
std::string legacy_version_message(const ServedKind& served, std::string_view api_version,
                                   std::string_view file) {
  std::string message = served.kind + " is served as " + versions_text(served) + ", not " +
                        std::string(api_version) + ": write apiVersion: " + versions_text(served) +
                        ", with " + kMovedRunPolicyFields +
                        " under spec.runPolicy where older versions had them in spec";
  if (served.legacy->trainer_runtime != nullptr) {
    message += "; `kubectl trainjob convert -f " + convert_input_name(file) +
               "` then moves it to a TrainJob";
  }
  return message;
}

std::string retired_message(std::string_view api_version, const RetiredKind& retired) {
  return "kind " + std::string(retired.kind) + " of " + std::string(api_version) +
         " is not supported: expected one of " + supported_legacy_kinds() + " (" + retired.why +
         ": run the training as one of these kinds or as a TrainJob)";
}

}  // namespace

std::optional<ApiMismatch> match_api_kind(std::string_view api_version, std::string_view kind,
                                          std::string_view file) {
  if (api_version.empty() || kind.empty()) return std::nullopt;
  const bool in_kubeflow_group = api_group(api_version) == kKubeflowGroup;
  if (const ServedKind* exact = find_served_kind(kind)) {
    if (kind_serves(*exact, api_version) || !claims_our_kinds(api_version)) return std::nullopt;
    if (api_version == kKubeflowV2alpha1ApiVersion && is_trainer_kind(kind))
      return ApiMismatch{"apiVersion", v2alpha1_message(kind, file)};
    if (exact->legacy != nullptr && in_kubeflow_group)
      return ApiMismatch{"apiVersion", legacy_version_message(*exact, api_version, file)};
    return ApiMismatch{"apiVersion", exact->kind + " is served as " + versions_text(*exact) +
                                         ", not " + std::string(api_version) +
                                         ": write apiVersion: " + exact->api_versions.front()};
  }
  const RetiredKind* retired = find_retired_kind(kind);
  if (retired != nullptr && in_kubeflow_group)
    return ApiMismatch{"kind", retired_message(api_version, *retired)};
  if (const ServedKind* meant = meant_kind(api_version, kind))
    return ApiMismatch{"kind", misspelt_message(api_version, kind, *meant)};
  if (starts_with(api_version, kTrainerGroupPrefix)) {
    return ApiMismatch{"kind", "kind \"" + std::string(kind) + "\" is not a kind of " +
                                   std::string(api_version) + ": the Trainer serves " + kTrainJob +
                                   ", " + kTrainingRuntime + " and " + kClusterTrainingRuntime +
                                   " as " + kTrainerApiVersion};
  }
  return std::nullopt;
}

bool is_v2alpha1_document(const Document& document) {
  return document.api_version() == kKubeflowV2alpha1ApiVersion && is_trainer_kind(document.kind());
}

bool check_api_kind(const Document& document, Diagnostics* diagnostics) {
  std::optional<ApiMismatch> mismatch =
      match_api_kind(document.api_version(), document.kind(), document.file);
  if (!mismatch) return true;
  diagnostics->error(document.file, document.pos_of(mismatch->field), mismatch->field,
                     mismatch->message);
  return false;
}

}  // namespace trainjob
