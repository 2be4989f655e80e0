#include "legacy/legacy_kinds.h"

#include <iterator>

#include "model/vocabulary.h"

namespace trainjob {
namespace {

/// Every kind we compile. Adding a kind adds one line here and one kind_*.cpp.
const LegacyKind* const kLegacyKinds[] = {
    &kPyTorchJobKind, &kTFJobKind,    &kXGBoostJobKind,    &kPaddleJobKind,
    &kJAXJobKind,     &kMPIJobV1Kind, &kMPIJobV2beta1Kind,
};

constexpr std::string_view kLegacyGroup = kKubeflowGroupPrefix;

}  // namespace

const LegacyKind* find_legacy_kind(std::string_view api_version, std::string_view kind) {
  for (const LegacyKind* candidate : kLegacyKinds) {
    if (candidate->api_version == api_version && candidate->kind == kind) return candidate;
  }
  return nullptr;
}

bool is_legacy_document(const Document& document) {
  std::string_view api_version = document.api_version();
  if (api_version.substr(0, kLegacyGroup.size()) != kLegacyGroup) return false;
  std::string_view version = api_version.substr(kLegacyGroup.size());
  return version == "v1" || version == "v2beta1";
}

std::vector<const LegacyKind*> all_legacy_kinds() {
  return {std::begin(kLegacyKinds), std::end(kLegacyKinds)};
}

std::string supported_legacy_kinds() {
  std::string out;
  for (const LegacyKind* kind : kLegacyKinds) {
    out += (out.empty() ? "" : ", ") + std::string(kind->api_version) + " " + kind->kind;
  }
  return out;
}

}  // namespace trainjob
